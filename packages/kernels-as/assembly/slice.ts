import { getI32, setI32, rowAt, moveValue } from './rows';

/**
 * The rows with lo[d] <= index[d] < hi[d] in every dim (lo, hi: i32 [rank], clamped to the dense shape by the
 * caller), moved by -lo, with their values, in input order. Returns how many.
 */
@inline function slice<T>(
  idx: usize,
  n: i32,
  rank: i32,
  lo: usize,
  hi: usize,
  vals: usize,
  outIdx: usize,
  outVals: usize,
): i32 {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const row = rowAt(idx, i, rank);
    let inside = true;
    for (let d = 0; d < rank; d++) {
      const x = getI32(row, d);
      if (x < getI32(lo, d) || x >= getI32(hi, d)) {
        inside = false;
        break;
      }
    }
    if (!inside) continue;
    const orow = rowAt(outIdx, m, rank);
    for (let d = 0; d < rank; d++) setI32(orow, d, getI32(row, d) - getI32(lo, d));
    moveValue<T>(outVals, m, vals, i);
    m++;
  }
  return m;
}

export function slice_4(
  idx: usize,
  n: i32,
  rank: i32,
  lo: usize,
  hi: usize,
  vals: usize,
  outIdx: usize,
  outVals: usize,
): i32 {
  return slice<u32>(idx, n, rank, lo, hi, vals, outIdx, outVals);
}
export function slice_8(
  idx: usize,
  n: i32,
  rank: i32,
  lo: usize,
  hi: usize,
  vals: usize,
  outIdx: usize,
  outVals: usize,
): i32 {
  return slice<u64>(idx, n, rank, lo, hi, vals, outIdx, outVals);
}
