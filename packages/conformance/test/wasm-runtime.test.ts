import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, SparseTensor, createRuntime, listOps, tensor, type Runtime } from '@sparse/runtime';
import { matrixIndices as matrixIndicesOf } from '@sparse/test-kit/plain-data';

// The wasm backend as the runtime drives it: every op there, a kernel-side failure as the JS backend's error, and
// the index check that runs in wasm for large index sets, whose copy of the indices the next kernel takes.

const ROWS = 50_000;

const matrixIndices = () => matrixIndicesOf(ROWS);

/** The error a call throws, as `name: message`. */
function errorOf(call: () => unknown): string {
  try {
    call();
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
  return 'no error';
}

describe('the wasm backend through the runtime', async () => {
  const wasm = await createRuntime({ backend: 'wasm' });
  const js = await createRuntime({ backend: 'js' });

  it('has every op of the specs', () => {
    for (const op of listOps()) expect(wasm.hasOp(op), op).toBe(true);
  });

  it("turns a kernel-side failure into the JS backend's error, naming the entry, and recovers", () => {
    const st = new SparseTensor([[0], [2]], [7, 8], [3], 'int32');
    expect(() => wasm.sparse.denseCwiseDiv(st, tensor([1, 1, 0], 'int32'))).toThrow(InvalidArgumentError);
    expect(() => wasm.sparse.denseCwiseDiv(st, tensor([1, 1, 0], 'int32'))).toThrow(
      /integer division by zero at sp_input\.indices\[1\] = \[2\]/,
    );
    expect(errorOf(() => wasm.sparse.denseCwiseDiv(st, tensor([1, 1, 0], 'int32')))).toBe(
      errorOf(() => js.sparse.denseCwiseDiv(st, tensor([1, 1, 0], 'int32'))),
    );
    expect(Array.from(wasm.sparse.denseCwiseDiv(st, tensor([1, 1, 2], 'int32')).values as Int32Array)).toEqual([7, 4]);
  });

  it('the copy the index check made is taken by the kernel right after it, and by no other call', () => {
    const idx = matrixIndices();
    const st = new SparseTensor(
      idx,
      Float32Array.from({ length: ROWS }, (_, i) => (i % 13) - 6),
      [300, 200],
      'float32',
    );
    const b = tensor(
      Float32Array.from({ length: 200 * 3 }, (_, i) => i % 5),
      'float32',
      [200, 3],
    );
    const bT = tensor(
      Float32Array.from({ length: 300 * 3 }, (_, i) => i % 7),
      'float32',
      [300, 3],
    );
    const run = (rt: Runtime) => [
      Array.from(rt.run('sparse_tensor_dense_matmul', { sp_a: st, b }).output.data as Float32Array),
      Array.from(
        rt.run('sparse_tensor_dense_matmul', { sp_a: st, b: bT, adjoint_a: true }).output.data as Float32Array,
      ),
      Array.from(rt.run('sparse_reduce_sum', { sp_input: st, axis: [1] }).output.data as Float32Array),
      Array.from(
        rt.run('sparse_dense_cwise_mul', { sp_input: st, dense: tensor([2], 'float32') }).output.values as Float32Array,
      ),
      Array.from(
        rt.run('sparse_tensor_to_dense', { sp_input: st, validate_indices: false }).output.data as Float32Array,
      ),
    ];
    expect(run(wasm)).toEqual(run(js));
    // The same SparseTensor, its indices changed in place between calls: each call checks and copies afresh.
    for (let i = 0; i < ROWS; i++) idx[2 * i] = 299 - idx[2 * i];
    expect(run(wasm)).toEqual(run(js));
  });

  it("a large input with one bad entry gets the JS backend's error, naming it", () => {
    const idx = matrixIndices();
    idx[2 * 4321 + 1] = 250;
    const st = new SparseTensor(idx, new Float32Array(ROWS), [300, 200], 'float32');
    const b = tensor(new Float32Array(200 * 3), 'float32', [200, 3]);
    const message = (rt: Runtime) => errorOf(() => rt.run('sparse_tensor_dense_matmul', { sp_a: st, b }));
    expect(message(wasm)).toMatch(/InvalidArgumentError: .*indices\[4321\] = \[121,250\] is out of bounds/);
    expect(message(wasm)).toBe(message(js));
  });
});
