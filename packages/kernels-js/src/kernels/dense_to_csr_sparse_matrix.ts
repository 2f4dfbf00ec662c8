import { allocValues, copyValue, type DenseToCsrSparseMatrixKernel } from '@sparse/kernel-abi';
import { csrData, csrDims } from '../csr.js';

/**
 * The values of `dense_input` at `indices` (an [N, rank] int64 matrix of positions inside it, in canonical order:
 * the runtime checks both), as a CSR matrix: rows counted into the row pointers, then summed. O(N + batch · rows).
 */
export const denseToCsrSparseMatrix: DenseToCsrSparseMatrixKernel = ({ dense_input, indices }) => {
  const [batch, rows, cols] = csrDims(dense_input);
  const rank = dense_input.shape.length;
  const n = indices.shape[0];
  const idx = indices.data as BigInt64Array;
  const rowPointers = new Int32Array(batch * (rows + 1));
  const batchPointers = new Int32Array(batch + 1);
  const colIndices = new Int32Array(n);
  const values = allocValues(dense_input.dtype, n, false);
  for (let e = 0; e < n; e++) {
    const b = rank === 3 ? Number(idx[e * 3]) : 0;
    const r = Number(idx[e * rank + rank - 2]);
    const c = Number(idx[e * rank + rank - 1]);
    rowPointers[b * (rows + 1) + r + 1]++;
    batchPointers[b + 1]++;
    colIndices[e] = c;
    copyValue(values, e, dense_input.data, (b * rows + r) * cols + c);
  }
  for (let b = 0; b < batch; b++) {
    batchPointers[b + 1] += batchPointers[b];
    for (let r = 0, p = b * (rows + 1); r < rows; r++, p++) rowPointers[p + 1] += rowPointers[p];
  }
  return {
    output: csrData(batchPointers, rowPointers, colIndices, values, dense_input.shape.slice(), dense_input.dtype),
  };
};
