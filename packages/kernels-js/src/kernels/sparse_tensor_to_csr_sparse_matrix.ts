import type { SparseTensorToCsrSparseMatrixKernel } from '@sparse/kernel-abi';
import { csrData, csrDims } from '../csr.js';

/**
 * The CSR form of a rank-2 or rank-3 SparseTensor in canonical order (the runtime checks it): each entry's column
 * copied in order, each row's entries counted into the row pointers, then summed. O(nnz + batch · rows).
 */
export const sparseTensorToCsrSparseMatrix: SparseTensorToCsrSparseMatrixKernel = ({ sp_input }) => {
  const [batch, rows] = csrDims(sp_input);
  const rank = sp_input.shape.length;
  const nnz = sp_input.values.length;
  const idx = sp_input.indices;
  const rowPointers = new Int32Array(batch * (rows + 1));
  const batchPointers = new Int32Array(batch + 1);
  const colIndices = new Int32Array(nnz);
  for (let e = 0; e < nnz; e++) {
    const b = rank === 3 ? idx[e * 3] : 0;
    rowPointers[b * (rows + 1) + idx[e * rank + rank - 2] + 1]++;
    colIndices[e] = idx[e * rank + rank - 1];
    batchPointers[b + 1]++;
  }
  for (let b = 0; b < batch; b++) {
    batchPointers[b + 1] += batchPointers[b];
    for (let r = 0, p = b * (rows + 1); r < rows; r++, p++) rowPointers[p + 1] += rowPointers[p];
  }
  const values = sp_input.values.slice() as typeof sp_input.values;
  return {
    output: csrData(batchPointers, rowPointers, colIndices, values, sp_input.shape.slice(), sp_input.dtype),
  };
};
