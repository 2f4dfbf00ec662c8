import { getI32, rowAt, idAt } from './rows';

/**
 * out (u8 [size]) = 0, then 1 at offset id + Σ index[d] × strides[d] over the first rank - 1 dims of each row
 * (the last dim is discarded). Every offset is below size < 2^31 (checked by the runtime).
 */
@inline function toIndicator<I>(
  idx: usize,
  n: i32,
  rank: i32,
  strides: usize,
  ids: usize,
  out: usize,
  size: i32,
): void {
  memory.fill(out, 0, <usize>size);
  const kept = rank - 1;
  for (let i = 0; i < n; i++) {
    const row = rowAt(idx, i, rank);
    let off = <usize>idAt<I>(ids, i);
    for (let d = 0; d < kept; d++) off += <usize>getI32(row, d) * <usize>getI32(strides, d);
    store<u8>(out + off, 1);
  }
}

export function to_indicator_4(idx: usize, n: i32, rank: i32, strides: usize, ids: usize, out: usize, size: i32): void {
  toIndicator<i32>(idx, n, rank, strides, ids, out, size);
}
export function to_indicator_8(idx: usize, n: i32, rank: i32, strides: usize, ids: usize, out: usize, size: i32): void {
  toIndicator<i64>(idx, n, rank, strides, ids, out, size);
}
