import { getI32, setI32, rowAt, moveValue } from './rows';

/**
 * First pass: `start` (i32 [rows], zeroed) becomes where each row begins in the output, an empty row taking one
 * place, and `empty` (u8 [rows]) flags the empty rows. Returns the output's entry count.
 */
export function fill_rows_plan(idx: usize, n: i32, rank: i32, rows: i32, start: usize, empty: usize): i32 {
  for (let i = 0; i < n; i++) {
    const r = load<i32>(rowAt(idx, i, rank));
    setI32(start, r, getI32(start, r) + 1);
  }
  let total = 0;
  for (let r = 0; r < rows; r++) {
    const c = getI32(start, r);
    setI32(start, r, total);
    store<u8>(empty + <usize>r, c == 0 ? 1 : 0);
    total += c == 0 ? 1 : c;
  }
  return total;
}

/** Second pass: each row's entries in input order at its place, `[row, 0, ..., 0]` with *fill (a T) for an empty row. */
@inline function fillRows<T>(
  idx: usize,
  n: i32,
  rank: i32,
  rows: i32,
  start: usize,
  empty: usize,
  vals: usize,
  fill: usize,
  outIdx: usize,
  outVals: usize,
): void {
  for (let i = 0; i < n; i++) {
    const src = rowAt(idx, i, rank);
    const r = load<i32>(src);
    const k = getI32(start, r);
    setI32(start, r, k + 1);
    const dst = rowAt(outIdx, k, rank);
    for (let d = 0; d < rank; d++) setI32(dst, d, getI32(src, d));
    moveValue<T>(outVals, k, vals, i);
  }
  const f = load<T>(fill);
  for (let r = 0; r < rows; r++) {
    if (load<u8>(empty + <usize>r) == 0) continue;
    const k = getI32(start, r);
    const dst = rowAt(outIdx, k, rank);
    setI32(dst, 0, r);
    for (let d = 1; d < rank; d++) setI32(dst, d, 0);
    store<T>(outVals + <usize>k * sizeof<T>(), f);
  }
}

export function fill_rows_4(
  idx: usize,
  n: i32,
  rank: i32,
  rows: i32,
  start: usize,
  empty: usize,
  vals: usize,
  fill: usize,
  outIdx: usize,
  outVals: usize,
): void {
  fillRows<u32>(idx, n, rank, rows, start, empty, vals, fill, outIdx, outVals);
}
export function fill_rows_8(
  idx: usize,
  n: i32,
  rank: i32,
  rows: i32,
  start: usize,
  empty: usize,
  vals: usize,
  fill: usize,
  outIdx: usize,
  outVals: usize,
): void {
  fillRows<u64>(idx, n, rank, rows, start, empty, vals, fill, outIdx, outVals);
}
