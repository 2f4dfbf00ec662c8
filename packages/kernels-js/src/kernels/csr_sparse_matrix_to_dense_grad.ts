import { allocValues, type CsrSparseMatrixToDenseGradKernel, type Values } from '@sparse/kernel-abi';
import { csrDims } from '../csr.js';

type Store = Float32Array | Float64Array;

/** Each stored value's gradient: grad at its position (a gather in entry order). O(nnz + batch · rows). */
export const csrSparseMatrixToDenseGrad: CsrSparseMatrixToDenseGradKernel = ({ sparse_input: m, grad }) => {
  const [batch, rows, cols] = csrDims(m);
  const g = grad.data as Store;
  const out = allocValues(m.dtype, m.values.length, false) as Store;
  for (let b = 0; b < batch; b++) {
    const base = m.batchPointers[b];
    for (let r = 0; r < rows; r++) {
      const p = b * (rows + 1) + r;
      const at = (b * rows + r) * cols;
      for (let k = base + m.rowPointers[p]; k < base + m.rowPointers[p + 1]; k++) out[k] = g[at + m.colIndices[k]];
    }
  }
  return { sparse_input_grad: { kind: 'dense', data: out as Values, shape: [out.length], dtype: m.dtype } };
};
