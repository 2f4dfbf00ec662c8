import { copyOut, type CsrData } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { csrDims } from '../csr-operand.js';

/**
 * sparse_tensor_to_csr_sparse_matrix in wasm: the i32 indices (prepared, or staged by the index check) counted into
 * row and batch pointers and their columns copied, in one pass (csr_from_indices); the values are the input's.
 */
export const sparseTensorToCsrSparseMatrix: KernelFactory<'sparse_tensor_to_csr_sparse_matrix'> =
  (ctx) =>
  ({ sp_input }) => {
    const [batch, rows] = csrDims(sp_input);
    const nnz = sp_input.values.length;
    const { heap } = ctx;
    const idx = ctx.startWithIndices(sp_input);
    const outRp = heap.alloc(batch * (rows + 1) * 4);
    const outBp = heap.alloc((batch + 1) * 4);
    const outCi = heap.alloc(nnz * 4);
    ctx.call('csr_from_indices', [idx, nnz, sp_input.shape.length, batch, rows, outRp, outBp, outCi]);
    const output: CsrData = {
      kind: 'csr',
      batchPointers: heap.i32(outBp, batch + 1).slice(),
      rowPointers: copyOut(heap.i32(outRp, batch * (rows + 1))),
      colIndices: copyOut(heap.i32(outCi, nnz)),
      values: sp_input.values.slice() as CsrData['values'],
      shape: sp_input.shape.slice(),
      dtype: sp_input.dtype,
    };
    return { output };
  };
