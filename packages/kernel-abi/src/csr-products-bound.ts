import type { CsrData } from './generated/kernel-types.js';
import { isImmutable } from './storage.js';

/**
 * The bound of a product of two matrices whose arrays never change (a CsrMatrix's own, marked immutable), kept by the
 * identity of their column indices, so that repeated products of the same operands count it once. Each entry says
 * which row pointers and flags it was counted for.
 */
const MEMO = new WeakMap<
  Int32Array,
  WeakMap<Int32Array, { aRp: Int32Array; bRp: Int32Array; flags: number; bound: number }>
>();

/** productsBound, remembered for operands that never change. */
export function rememberedProductsBound(a: CsrData, b: CsrData, transposeA: boolean, transposeB: boolean): number {
  const keep = [a.colIndices, a.rowPointers, b.colIndices, b.rowPointers].every((x) => isImmutable(x));
  if (!keep) return productsBound(a, b, transposeA, transposeB);
  const flags = (transposeA ? 1 : 0) + (transposeB ? 2 : 0);
  let forA = MEMO.get(a.colIndices);
  const hit = forA?.get(b.colIndices);
  if (hit && hit.aRp === a.rowPointers && hit.bRp === b.rowPointers && hit.flags === flags) return hit.bound;
  const bound = productsBound(a, b, transposeA, transposeB);
  if (!forA) MEMO.set(a.colIndices, (forA = new WeakMap()));
  forA.set(b.colIndices, { aRp: a.rowPointers, bRp: b.rowPointers, flags, bound });
  return bound;
}

/**
 * A bound on the stored entries of op(a) · op(b) for two CSR matrices (or batches of them), known before the product
 * is formed: for each row of op(a), the products Gustavson's algorithm forms there (the entries of op(b)'s rows that
 * the row's entries select), capped at op(b)'s columns. One pass over the entries of a and b, as the symbolic pass
 * of an SpGEMM would take, but without the product's own work. Scratch only where a flag asks for it, and counted by
 * the op's spec (`kernel.scratch`) before this runs: b's column counts (an int32 per column of b) when b is
 * transposed, and the products per row of op(a) (a float64 per column of a) when a is. Operands whose batches or
 * inner dims disagree are refused by the op's checks before this runs.
 */
function productsBound(a: CsrData, b: CsrData, transposeA: boolean, transposeB: boolean): number {
  const [batch, aRows, aCols] = batchDims(a);
  const [, bRows, bCols] = batchDims(b);
  const inner = transposeA ? aRows : aCols;
  const outRows = transposeA ? aCols : aRows;
  const outCols = transposeB ? bRows : bCols;
  if (inner !== (transposeB ? bCols : bRows)) return 0;
  if (!transposeA && !transposeB) return plainBound(a, b, batch, aRows, bRows, outCols);
  const bColCounts = transposeB ? new Int32Array(inner) : undefined;
  const rowProducts = transposeA ? new Float64Array(outRows) : undefined;
  let total = 0;
  for (let n = 0; n < batch; n++) {
    // The entries in row k of op(b): b's column count k when transposed, else its row length k.
    const bRp = n * (bRows + 1);
    if (bColCounts) {
      bColCounts.fill(0);
      for (let k = b.batchPointers[n]; k < b.batchPointers[n + 1]; k++) bColCounts[b.colIndices[k]]++;
    }
    const opBRow = (k: number) => (bColCounts ? bColCounts[k] : b.rowPointers[bRp + k + 1] - b.rowPointers[bRp + k]);
    rowProducts?.fill(0);
    const aBase = a.batchPointers[n];
    const aRp = n * (aRows + 1);
    for (let r = 0; r < aRows; r++) {
      const from = aBase + a.rowPointers[aRp + r];
      const to = aBase + a.rowPointers[aRp + r + 1];
      if (rowProducts) {
        // Entry (r, c) of a is entry (c, r) of op(a): it adds op(b)'s row r to row c.
        const count = opBRow(r);
        for (let k = from; k < to; k++) rowProducts[a.colIndices[k]] += count;
      } else {
        let sum = 0;
        for (let k = from; k < to; k++) sum += opBRow(a.colIndices[k]);
        total += Math.min(sum, outCols);
      }
    }
    if (rowProducts) for (let r = 0; r < outRows; r++) total += Math.min(rowProducts[r], outCols);
  }
  return total;
}

/** The bound without transposes, read off the row pointers directly: no scratch, one pass over a's entries. */
function plainBound(a: CsrData, b: CsrData, batch: number, aRows: number, bRows: number, outCols: number): number {
  const { rowPointers: arp, colIndices: aci, batchPointers: abp } = a;
  const brp = b.rowPointers;
  let total = 0;
  for (let n = 0; n < batch; n++) {
    const aBase = abp[n];
    const ap = n * (aRows + 1);
    const bp = n * (bRows + 1);
    for (let r = 0; r < aRows; r++) {
      let sum = 0;
      for (let k = aBase + arp[ap + r]; k < aBase + arp[ap + r + 1]; k++)
        sum += brp[bp + aci[k] + 1] - brp[bp + aci[k]];
      total += sum < outCols ? sum : outCols;
    }
  }
  return total;
}

/** [batch, rows, cols] of a matrix or a batch of them. */
function batchDims(m: CsrData): [number, number, number] {
  const s = m.shape;
  return s.length === 3 ? [s[0], s[1], s[2]] : [1, s[0], s[1]];
}
