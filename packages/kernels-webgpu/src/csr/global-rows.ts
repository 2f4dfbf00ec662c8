import type { CsrData } from '@sparse/kernel-abi';

/** [batch, rows, cols] of a CSR matrix (batch 1) or a batch of them. */
export function csrDims(m: { shape: readonly number[] }): [number, number, number] {
  const s = m.shape;
  return s.length === 3 ? [s[0], s[1], s[2]] : [1, s[0], s[1]];
}

/**
 * Whether a CSR matrix or batch is as the runtime requires (batch pointers from 0, row pointers of each matrix from
 * 0 to its entry count, never decreasing, columns in range, as many values as columns): the GPU reads its entries
 * through these pointers, so a direct call with anything else runs on the JS kernels. O(nnz + batch · rows).
 */
export function csrIsValid(m: CsrData): boolean {
  if (m.shape.length !== 2 && m.shape.length !== 3) return false;
  const [batch, rows, cols] = csrDims(m);
  const { batchPointers: bp, rowPointers: rp, colIndices: ci } = m;
  const nnz = ci.length;
  if (bp.length !== batch + 1 || rp.length !== batch * (rows + 1) || m.values.length !== nnz || bp[0] !== 0)
    return false;
  for (let b = 0; b < batch; b++) {
    const count = bp[b + 1] - bp[b];
    if (!(count >= 0) || rp[b * (rows + 1)] !== 0 || rp[b * (rows + 1) + rows] !== count) return false;
    for (let r = 0; r < rows; r++) if (rp[b * (rows + 1) + r + 1] < rp[b * (rows + 1) + r]) return false;
  }
  if (bp[batch] !== nnz) return false;
  for (let k = 0; k < nnz; k++) if (!(ci[k] >= 0 && ci[k] < cols)) return false;
  return true;
}

/** The rows of op(m) over the whole batch: global row b·rows + r; each entry's column and value bits, in row order. */
export interface GlobalRows {
  /** batch · rows + 1 entry positions: row g holds entries rowPtr[g] to rowPtr[g + 1]. */
  rowPtr: Uint32Array;
  col: Uint32Array;
  /** The value bits, `width` words a value (structural/value-words.ts), moved as words so that they stay exact. */
  words: Uint32Array;
  width: number;
  /** Rows and columns of each matrix of op(m). */
  rows: number;
  cols: number;
}

/**
 * op(m) (m, or the transpose of each matrix of it) as rows over the whole batch. Transposed, by a counting sort on
 * the column walking m's rows in order, so each row of the transpose holds its columns (m's rows) in increasing
 * order, as the JS kernel's transposeCsr. `words`: the bits of m's values, `width` words a value.
 * O(nnz · width + batch · (rows + cols)).
 */
export function globalRows(m: CsrData, words: Uint32Array, transposed: boolean, width = 1): GlobalRows {
  const [batch, rows, cols] = csrDims(m);
  const nnz = m.colIndices.length;
  const { batchPointers: bp, rowPointers: rp, colIndices: ci } = m;
  if (!transposed) {
    const rowPtr = new Uint32Array(batch * rows + 1);
    for (let b = 0; b < batch; b++)
      for (let r = 0; r < rows; r++) rowPtr[b * rows + r] = bp[b] + rp[b * (rows + 1) + r];
    rowPtr[batch * rows] = nnz;
    return { rowPtr, col: new Uint32Array(ci.buffer, ci.byteOffset, nnz), words, width, rows, cols };
  }
  const rowPtr = new Uint32Array(batch * cols + 1);
  const col = new Uint32Array(nnz);
  const out = new Uint32Array(nnz * width);
  const next = new Uint32Array(cols);
  for (let b = 0; b < batch; b++) {
    const first = b * cols;
    for (let k = bp[b]; k < bp[b + 1]; k++) rowPtr[first + ci[k] + 1]++;
    rowPtr[first] = bp[b];
    for (let c = 0; c < cols; c++) {
      next[c] = rowPtr[first + c];
      rowPtr[first + c + 1] += rowPtr[first + c];
    }
    for (let r = 0; r < rows; r++) {
      const p = b * (rows + 1) + r;
      for (let k = bp[b] + rp[p]; k < bp[b] + rp[p + 1]; k++) {
        const at = next[ci[k]]++;
        col[at] = r;
        for (let w = 0; w < width; w++) out[at * width + w] = words[k * width + w];
      }
    }
  }
  rowPtr[batch * cols] = nnz;
  return { rowPtr, col, words: out, width, rows: cols, cols: rows };
}
