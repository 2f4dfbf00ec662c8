import { getI32, setI32, rowAt, moveValue } from './rows';

/**
 * A counting sort of the rows by piece along `ax`: the first r pieces span q + 1 positions, the rest q (q >= 1).
 * `ends` (i32 [pieces], zeroed) ends up holding where each piece ends in outIdx/outVals (piece p starts where
 * p - 1 ends); `piece` (i32 [n]) is scratch. Within a piece rows keep their input order; the axis index becomes
 * relative to the piece's start.
 */
@inline function split<T>(
  idx: usize,
  n: i32,
  rank: i32,
  ax: i32,
  q: i32,
  r: i32,
  pieces: i32,
  ends: usize,
  piece: usize,
  vals: usize,
  outIdx: usize,
  outVals: usize,
): void {
  const big = r * (q + 1);
  for (let i = 0; i < n; i++) {
    const x = getI32(rowAt(idx, i, rank), ax);
    const p = x < big ? x / (q + 1) : r + (x - big) / q;
    setI32(piece, i, p);
    setI32(ends, p, getI32(ends, p) + 1);
  }
  // Exclusive prefix sums: ends[p] = where piece p starts, advanced by the scatter to where it ends.
  let total = 0;
  for (let p = 0; p < pieces; p++) {
    const c = getI32(ends, p);
    setI32(ends, p, total);
    total += c;
  }
  for (let i = 0; i < n; i++) {
    const p = getI32(piece, i);
    const k = getI32(ends, p);
    setI32(ends, p, k + 1);
    const src = rowAt(idx, i, rank);
    const dst = rowAt(outIdx, k, rank);
    for (let d = 0; d < rank; d++) setI32(dst, d, getI32(src, d));
    const start = p < r ? p * (q + 1) : big + (p - r) * q;
    setI32(dst, ax, getI32(src, ax) - start);
    moveValue<T>(outVals, k, vals, i);
  }
}

export function split_4(
  idx: usize,
  n: i32,
  rank: i32,
  ax: i32,
  q: i32,
  r: i32,
  pieces: i32,
  ends: usize,
  piece: usize,
  vals: usize,
  outIdx: usize,
  outVals: usize,
): void {
  split<u32>(idx, n, rank, ax, q, r, pieces, ends, piece, vals, outIdx, outVals);
}
export function split_8(
  idx: usize,
  n: i32,
  rank: i32,
  ax: i32,
  q: i32,
  r: i32,
  pieces: i32,
  ends: usize,
  piece: usize,
  vals: usize,
  outIdx: usize,
  outVals: usize,
): void {
  split<u64>(idx, n, rank, ax, q, r, pieces, ends, piece, vals, outIdx, outVals);
}
