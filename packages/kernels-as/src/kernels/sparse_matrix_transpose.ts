import { copyOut, type CsrData } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { csrOperand } from '../csr-operand.js';

/** sparse_matrix_transpose in wasm: a counting sort of each matrix's entries on their columns (csr_transpose_4/8). */
export const sparseMatrixTranspose: KernelFactory<'sparse_matrix_transpose'> = (ctx) => (args) => {
  const { input } = args;
  const dtype = input.dtype as 'float32' | 'float64';
  ctx.begin();
  const t = csrOperand(ctx, input, true);
  const { heap } = ctx;
  const output: CsrData = {
    kind: 'csr',
    batchPointers: input.batchPointers.slice(),
    rowPointers: copyOut(heap.i32(t.rp, t.batch * (t.rows + 1))),
    colIndices: copyOut(heap.i32(t.ci, t.nnz)),
    values: heap.readValues(dtype, t.vals, t.nnz),
    shape: input.shape.length === 3 ? [t.batch, t.rows, t.cols] : [t.rows, t.cols],
    dtype,
  };
  return { output };
};
