import type { DenseData } from '@sparse/kernel-abi';
import { bytesPerElement } from '../heap.js';
import type { KernelFactory } from '../kernel.js';
import { csrOperand } from '../csr-operand.js';

/** csr_sparse_matrix_to_dense in wasm: zeros, then each entry at its place (csr_to_dense_4/8). */
export const csrSparseMatrixToDense: KernelFactory<'csr_sparse_matrix_to_dense'> =
  (ctx) =>
  ({ sparse_input }) => {
    const dtype = sparse_input.dtype;
    const size = bytesPerElement(dtype);
    ctx.begin();
    const m = csrOperand(ctx, sparse_input);
    const total = m.batch * m.rows * m.cols;
    const out = ctx.heap.alloc(total * size);
    ctx.call(size === 4 ? 'csr_to_dense_4' : 'csr_to_dense_8', [
      m.rp,
      m.ci,
      m.vals,
      m.bp,
      m.batch,
      m.rows,
      m.cols,
      out,
    ]);
    const output: DenseData = {
      kind: 'dense',
      data: ctx.heap.readValues(dtype, out, total),
      shape: sparse_input.shape.slice(),
      dtype,
    };
    return { output };
  };
