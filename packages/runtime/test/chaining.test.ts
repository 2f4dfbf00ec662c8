import { expect, it } from 'vitest';
import { CsrMatrix, sparse, SparseTensor, Tensor } from '../src/index.js';

// SparseTensor's methods chain as PyTorch's and scipy's do, each the op of the default runtime.

const st = new SparseTensor(
  [
    [1, 0],
    [0, 2],
    [0, 1],
  ],
  Float32Array.of(3, 2, 1),
  [2, 3],
);
const plain = (x: SparseTensor | Tensor) => (x instanceof Tensor ? x.toArray() : x.toJSON());

it('transpose, reorder, sum, matmul and toCsr are the ops they name', () => {
  expect(plain(st.transpose())).toEqual(plain(sparse.transpose(st)));
  expect(plain(st.transpose([0, 1]))).toEqual(plain(sparse.transpose(st, { perm: [0, 1] })));
  expect(plain(st.reorder())).toEqual(plain(sparse.reorder(st)));
  expect(st.sum().toArray()).toBe(6);
  expect(st.sum(1).toArray()).toEqual([3, 3]);
  expect(st.sum([0], true).toArray()).toEqual([[3, 1, 2]]);
  const d = new Tensor(Float32Array.of(1, 2, 3), [3, 1], 'float32');
  expect(st.matmul(d).toArray()).toEqual([[8], [3]]);
  expect(st.reorder().toCsr()).toBeInstanceOf(CsrMatrix);
  expect(plain(st.reorder().toCsr().toSparse())).toEqual(plain(sparse.reorder(st)));
});

it('they chain', () => {
  expect(st.reorder().transpose().sum(0).toArray()).toEqual([3, 3]);
});
