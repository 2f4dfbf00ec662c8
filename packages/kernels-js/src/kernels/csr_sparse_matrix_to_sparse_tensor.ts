import { allocIndices, type CsrSparseMatrixToSparseTensorKernel } from '@sparse/kernel-abi';
import { csrDims } from '../csr.js';

/** The entries batch by batch, row by row, in stored (sorted) column order: canonical order. O(nnz + batch · rows). */
export const csrSparseMatrixToSparseTensor: CsrSparseMatrixToSparseTensorKernel = ({ sparse_matrix: m }) => {
  const [batch, rows] = csrDims(m);
  const rank = m.shape.length;
  const nnz = m.colIndices.length;
  const indices = allocIndices(nnz * rank, false);
  for (let b = 0; b < batch; b++) {
    const base = m.batchPointers[b];
    for (let r = 0; r < rows; r++) {
      const p = b * (rows + 1) + r;
      for (let k = base + m.rowPointers[p]; k < base + m.rowPointers[p + 1]; k++) {
        if (rank === 3) indices[k * 3] = b;
        indices[k * rank + rank - 2] = r;
        indices[k * rank + rank - 1] = m.colIndices[k];
      }
    }
  }
  return {
    output: {
      kind: 'sparse',
      indices,
      values: m.values.slice() as typeof m.values,
      shape: m.shape.slice(),
      dtype: m.dtype,
    },
  };
};
