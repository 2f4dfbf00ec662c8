import type { CsrData } from '@sparse/kernel-abi';
import { csrDims } from './global-rows.js';

/**
 * Whether each row's columns strictly increase, as the runtime requires of a CsrMatrix: then no two entries share a
 * dense element, and a GPU scatter of them races nowhere (a direct call with a repeat runs on the JS kernels, whose
 * writes in order keep the last). O(nnz + batch · rows).
 */
export function columnsIncrease(m: CsrData): boolean {
  const [batch, rows] = csrDims(m);
  const { batchPointers: bp, rowPointers: rp, colIndices: ci } = m;
  for (let b = 0; b < batch; b++)
    for (let r = 0; r < rows; r++) {
      const p = b * (rows + 1) + r;
      for (let k = bp[b] + rp[p] + 1; k < bp[b] + rp[p + 1]; k++) if (ci[k] <= ci[k - 1]) return false;
    }
  return true;
}
