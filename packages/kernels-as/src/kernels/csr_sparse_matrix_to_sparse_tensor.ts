import type { SparseData } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { csrOperand } from '../csr-operand.js';

/** csr_sparse_matrix_to_sparse_tensor in wasm: the index rows written batch by batch, row by row (csr_to_indices). */
export const csrSparseMatrixToSparseTensor: KernelFactory<'csr_sparse_matrix_to_sparse_tensor'> =
  (ctx) =>
  ({ sparse_matrix }) => {
    const rank = sparse_matrix.shape.length;
    ctx.begin();
    const m = csrOperand(ctx, sparse_matrix);
    const out = ctx.heap.alloc(m.nnz * rank * 4);
    ctx.call('csr_to_indices', [m.rp, m.ci, m.bp, m.batch, m.rows, rank, out]);
    const output: SparseData = {
      kind: 'sparse',
      indices: ctx.heap.readIndices(out, m.nnz * rank),
      values: sparse_matrix.values.slice() as SparseData['values'],
      shape: sparse_matrix.shape.slice(),
      dtype: sparse_matrix.dtype,
    };
    return { output };
  };
