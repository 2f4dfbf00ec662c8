import type { DenseData, SparseData, SparseTensorDenseMatmulKernel } from '@sparse/kernel-abi';
import { accumulateRows, transposeMatrix } from '../matmul-rows.js';
import { allocValues } from '@sparse/kernel-abi';

/**
 * op(sp_a) · op(b), op transposing where its adjoint flag is set; exactly one operand is a SparseTensor (the
 * runtime checks that both are rank 2 and the inner dimensions agree). The result is a dense [m, n] matrix.
 *
 * Sparse A: every stored entry (r, c, v) of op(A) adds v · op(B)[c, :] to out[r, :]; op(B) is B itself, or
 * B transposed once up front so the inner loop stays contiguous. O(nnz · n + k · n + m · n).
 *
 * Dense A, sparse B: the same computation on the transposed problem, outᵀ = op(B)ᵀ · op(A)ᵀ (as TensorFlow 2's
 * `sparse_dense_matmul` does), then one transpose of the [n, m] result. O(nnz · m + k · m + m · n).
 *
 * Entries are taken in their order, any order is fine, and repeated indices add up.
 */
export const sparseTensorDenseMatmul: SparseTensorDenseMatmulKernel = ({ sp_a, b, adjoint_a, adjoint_b }) => {
  const dtype = sp_a.dtype;
  const [a0, a1] = sp_a.shape;
  const [b0, b1] = b.shape;
  const m = adjoint_a ? a1 : a0;
  const n = adjoint_b ? b0 : b1;
  if (sp_a.kind === 'sparse') {
    const dense = b as DenseData;
    // op(B) as a row-major [k, n] store.
    const opB = adjoint_b ? transposeMatrix(dense.data, b0, b1, dtype) : dense.data;
    const out = allocValues(dtype, m * n);
    accumulateRows(out, sp_a.indices, sp_a.values, adjoint_a ? 1 : 0, opB, n, dtype);
    return { output: { kind: 'dense', data: out, shape: [m, n], dtype } };
  }
  const sparse = b as SparseData;
  // op(A)ᵀ as a row-major [k, m] store: A itself under adjoint_a, else A transposed.
  const opAT = adjoint_a ? sp_a.data : transposeMatrix(sp_a.data, a0, a1, dtype);
  const outT = allocValues(dtype, n * m);
  // An entry (p, q) of B sits at (q, p) of op(B)ᵀ, or at (p, q) under adjoint_b.
  accumulateRows(outT, sparse.indices, sparse.values, adjoint_b ? 0 : 1, opAT, m, dtype);
  return { output: { kind: 'dense', data: transposeMatrix(outT, n, m, dtype), shape: [m, n], dtype } };
};
