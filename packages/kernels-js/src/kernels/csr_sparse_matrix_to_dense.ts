import { allocValues, copyValue, type CsrSparseMatrixToDenseKernel } from '@sparse/kernel-abi';
import { csrDims } from '../csr.js';

/** Zeros, then each entry written at its place. O(batch · rows · cols + nnz). */
export const csrSparseMatrixToDense: CsrSparseMatrixToDenseKernel = ({ sparse_input: m }) => {
  const [batch, rows, cols] = csrDims(m);
  const data = allocValues(m.dtype, batch * rows * cols);
  for (let b = 0; b < batch; b++) {
    const base = m.batchPointers[b];
    for (let r = 0; r < rows; r++) {
      const p = b * (rows + 1) + r;
      const row = (b * rows + r) * cols;
      for (let k = base + m.rowPointers[p]; k < base + m.rowPointers[p + 1]; k++)
        copyValue(data, row + m.colIndices[k], m.values, k);
    }
  }
  return { output: { kind: 'dense', data, shape: m.shape.slice(), dtype: m.dtype } };
};
