import { allocValues, type SparseMatrixTransposeGradKernel, type Values } from '@sparse/kernel-abi';
import { csrDims } from '../csr.js';

type Store = Float32Array | Float64Array;

/**
 * Each stored value's gradient is that of the entry it became in the transpose: the transpose's counting sort on
 * the columns (transposeCsr's), reading grad where it would have written the value. O(nnz + batch · (rows + cols)).
 */
export const sparseMatrixTransposeGrad: SparseMatrixTransposeGradKernel = ({ input: m, grad }) => {
  const [batch, rows, cols] = csrDims(m);
  const g = grad.data as Store;
  const out = allocValues(m.dtype, m.values.length, false) as Store;
  const next = new Int32Array(cols + 1);
  for (let b = 0; b < batch; b++) {
    const base = m.batchPointers[b];
    const end = m.batchPointers[b + 1];
    // next[c]: where the transpose's row c (the input's column c) starts, from the counts of each column.
    next.fill(0);
    for (let k = base; k < end; k++) next[m.colIndices[k] + 1]++;
    for (let c = 0; c < cols; c++) next[c + 1] += next[c];
    for (let r = 0; r < rows; r++) {
      const p = b * (rows + 1) + r;
      for (let k = base + m.rowPointers[p]; k < base + m.rowPointers[p + 1]; k++)
        out[k] = g[base + next[m.colIndices[k]]++];
    }
  }
  return { input_grad: { kind: 'dense', data: out as Values, shape: [out.length], dtype: m.dtype } };
};
