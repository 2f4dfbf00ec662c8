import { allocValues, type SparseMatrixMatMulGradKernel, type Values } from '@sparse/kernel-abi';
import { accumulateRows, transposeMatrix } from '../matmul-rows.js';
import { sampledProducts } from '../sampled-products.js';
import { csrEntryPairs, matMulDims } from '../csr.js';

type Store = Float32Array | Float64Array;

/**
 * The gradient of op(a) · op(b) (transposed under transpose_output), matrix by matrix of a batch. With G the
 * gradient of op(a) · op(b), [m × n]: each stored value (r, c) of a gets row r of G · row c of op(b) (swapped when a
 * is transposed), a product sampled at a's entries; op(b) gets op(a)ᵀ · G by the forward kernel's row update, then
 * is transposed back when b was. O(nnz · n + the dense matrices) per matrix.
 */
export const sparseMatrixMatMulGrad: SparseMatrixMatMulGradKernel = (args) => {
  const { a, b, grad } = args;
  const { ta, tb, batch, b0, b1, m, k, n } = matMulDims(args);
  const dtype = a.dtype;
  const aGrad = allocValues(dtype, a.values.length) as Store;
  const bGrad = allocValues(dtype, b.data.length) as Store;
  for (let bi = 0; bi < batch; bi++) {
    const gMat = (grad.data as Store).subarray(bi * m * n, (bi + 1) * m * n);
    const g = args.transpose_output ? transposeMatrix(gMat, n, m, dtype) : gMat;
    const bMat = (b.data as Store).subarray(bi * b0 * b1, (bi + 1) * b0 * b1);
    const opB = tb ? transposeMatrix(bMat, b0, b1, dtype) : bMat;
    const { indices, base, nnz } = csrEntryPairs(a, bi);
    aGrad.set(sampledProducts(indices, nnz, ta, g, opB, n, dtype) as Store, base);
    // op(a)ᵀ · G: entry (r, c) adds v · G[r, :] to row c (to row r from G[c, :] when a is transposed).
    const opBGrad = allocValues(dtype, k * n) as Store;
    const values = (a.values as Store).subarray(base, base + nnz);
    accumulateRows(opBGrad, indices, values, ta ? 0 : 1, g, n, dtype);
    bGrad.set((tb ? transposeMatrix(opBGrad, k, n, dtype) : opBGrad) as Store, bi * b0 * b1);
  }
  return {
    a_grad: { kind: 'dense', data: aGrad as Values, shape: [a.values.length], dtype },
    b_grad: { kind: 'dense', data: bGrad as Values, shape: b.shape.slice(), dtype },
  };
};
