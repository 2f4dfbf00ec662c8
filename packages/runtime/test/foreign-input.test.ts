import { expect, it } from 'vitest';
import { CsrMatrix, sparse, SparseTensor } from '../src/index.js';

// Other libraries' layouts where a SparseTensor goes: refused with the exact conversion to write, and that
// conversion gives the tensor meant. The camelCase `denseShape` a SparseTensor reads back is taken.

const WANT = new SparseTensor(
  [
    [0, 1],
    [2, 0],
  ],
  Float32Array.of(5, 7),
  [3, 2],
);
const sum = (st: unknown) => (sparse.reduceSum(st as SparseTensor) as { dataSync(): ArrayLike<number> }).dataSync()[0];

it("scipy's COO layout is refused with the constructor call that reads it", () => {
  const coo = { row: [0, 2], col: [1, 0], data: Float32Array.of(5, 7), shape: [3, 2] };
  expect(() => sparse.reduceSum(coo as never)).toThrow(
    "sparse_reduce_sum: sp_input: scipy's COO layout (row, col, data, shape): write SparseTensor.fromCoordinates([row, col], data, shape)",
  );
  const { row, col, data, shape } = coo;
  expect(SparseTensor.fromCoordinates([row, col], data, shape).toJSON()).toEqual(WANT.toJSON());
});

it("scipy's CSR layout is refused with the CsrMatrix it is", () => {
  const csr = { indptr: [0, 1, 1, 2], indices: [1, 0], data: [5, 7], shape: [3, 2] };
  expect(() => sparse.reduceSum(csr as never)).toThrow(
    /scipy's CSR layout .*new CsrMatrix\(indptr, indices, data, shape, \{ canonicalize: true \}\)/,
  );
  const { indptr, indices, data, shape } = csr;
  const m = new CsrMatrix(indptr, indices, data, shape, { dtype: 'float32', canonicalize: true });
  expect(m.toSparse().toJSON()).toEqual(WANT.toJSON());
});

it("PyTorch's [rank, nnz] indices are refused with the transpose to write", () => {
  const torch = {
    indices: [
      [0, 2],
      [1, 0],
    ],
    values: Float32Array.of(5, 7),
    size: [3, 2],
  };
  expect(() => sparse.reduceSum(torch as never)).toThrow(
    /PyTorch's COO layout .*SparseTensor\.fromCoordinates\(indices, values, size\)/,
  );
  const { indices, values, size } = torch;
  expect(SparseTensor.fromCoordinates(indices, values, size).toJSON()).toEqual(WANT.toJSON());
});

it('a plain object with denseShape (as a SparseTensor names it) is a sparse argument; both spellings at once are not', () => {
  expect(
    sum({
      indices: [
        [0, 1],
        [2, 0],
      ],
      values: Float32Array.of(5, 7),
      denseShape: [3, 2],
    }),
  ).toBe(12);
  expect(() =>
    sparse.reduceSum({ indices: [[0, 0]], values: [1], denseShape: [1, 1], dense_shape: [1, 1] } as never),
  ).toThrow(/give dense_shape or denseShape, not both/);
});

it('a TensorFlow.js tensor (recognised by its shape) is refused with fromTf', () => {
  const tfLike = { dataId: {}, dataSync: () => Float32Array.of(1, 2), shape: [2, 1], dtype: 'float32', size: 2 };
  expect(() => sparse.tensorDenseMatmul(WANT, tfLike as never)).toThrow(
    /sparse_tensor_dense_matmul: b is a TensorFlow\.js tensor, which sparse does not read: convert it with fromTf\(x\) from @sparse\/tfjs/,
  );
  expect(() => sparse.reduceSum(tfLike as never)).toThrow(
    /sp_input is a TensorFlow\.js tensor.*sparse\.fromDense\(fromTf\(x\)\)/,
  );
  expect(() => sparse.concat(1, [WANT, tfLike as never])).toThrow(/sp_inputs\[1\] is a TensorFlow\.js tensor/);
});
