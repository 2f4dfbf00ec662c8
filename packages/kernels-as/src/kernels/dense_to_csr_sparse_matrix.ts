import { copyOut, type CsrData } from '@sparse/kernel-abi';
import { bytesPerElement } from '../heap.js';
import type { KernelFactory } from '../kernel.js';
import { csrDims } from '../csr-operand.js';

/**
 * dense_to_csr_sparse_matrix in wasm: the int64 positions (checked in canonical order inside `dense_input` by the
 * runtime) counted into row and batch pointers, their columns copied and their values gathered, in one pass.
 */
export const denseToCsrSparseMatrix: KernelFactory<'dense_to_csr_sparse_matrix'> =
  (ctx) =>
  ({ dense_input, indices }) => {
    const dtype = dense_input.dtype;
    const size = bytesPerElement(dtype);
    const [batch, rows, cols] = csrDims(dense_input);
    const n = indices.shape[0];
    const { heap } = ctx;
    ctx.begin();
    const idx = heap.putValues('int64', indices.data);
    const dense = heap.putValues(dtype, dense_input.data);
    const outRp = heap.alloc(batch * (rows + 1) * 4);
    const outBp = heap.alloc((batch + 1) * 4);
    const outCi = heap.alloc(n * 4);
    const outVals = heap.alloc(n * size);
    ctx.call(size === 4 ? 'dense_to_csr_4' : 'dense_to_csr_8', [
      idx,
      n,
      dense_input.shape.length,
      batch,
      rows,
      cols,
      dense,
      outRp,
      outBp,
      outCi,
      outVals,
    ]);
    const output: CsrData = {
      kind: 'csr',
      batchPointers: heap.i32(outBp, batch + 1).slice(),
      rowPointers: copyOut(heap.i32(outRp, batch * (rows + 1))),
      colIndices: copyOut(heap.i32(outCi, n)),
      values: heap.readValues(dtype, outVals, n),
      shape: dense_input.shape.slice(),
      dtype,
    };
    return { output };
  };
