// A strict TypeScript consumer: compiled with --noEmit under moduleResolution nodenext and bundler, with
// skipLibCheck off, so the published declarations themselves are checked. Each @ts-expect-error must stay an error.
import {
  InvalidArgumentError,
  SparseTensor,
  Tensor,
  createRuntime,
  registerBackend,
  setBackend,
  sparse,
  tensor,
  type Backend,
  type DType,
  type RuntimeOptions,
} from '@sparse/runtime';

const st: SparseTensor = new SparseTensor(
  [
    [0, 0],
    [1, 2],
  ],
  [1, 2],
  [3, 4],
  'float32',
);
const dense: Tensor = sparse.toDense(st, { defaultValue: 0 });
const shape: readonly number[] = dense.shape;
const dtype: DType = st.dtype;
const summed: Tensor = sparse.reduceSum(st, { axis: 1, keepdims: true });

const options: RuntimeOptions = { backend: 'wasm', wasmPath: new URL('https://cdn.example/kernels.wasm') };
const rt = await createRuntime(options);
const product: Tensor = rt.sparse.tensorDenseMatmul(st, tensor([[1], [2], [3], [4]], 'float32'), { adjointA: false });
await setBackend('wasm', { wasmPath: '/assets/kernels.wasm' });

const mine: Backend = { name: 'mine', kernels: {} };
registerBackend('mine', () => mine);

// @ts-expect-error a misspelled option is a type error, not ignored
const misspelled: RuntimeOptions = { backnd: 'wasm' };
// @ts-expect-error reduceSum's option is `axis`
sparse.reduceSum(st, { axes: 1 });
// @ts-expect-error setBackend takes the backend as its first argument
await setBackend('wasm', { backend: 'js' });

try {
  sparse.toDense(
    new SparseTensor(
      [
        [1, 0],
        [0, 0],
      ],
      [1, 2],
      [2, 2],
    ),
  );
} catch (e) {
  if (e instanceof InvalidArgumentError) console.log(e.message);
}

export { shape, dtype, summed, product, misspelled };
