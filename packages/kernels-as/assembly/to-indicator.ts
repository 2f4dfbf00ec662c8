import { getI32, rowAt, idAt } from './rows';

/**
 * offsets (i32 [n]) = id + Σ index[d] × strides[d] over the first rank - 1 dims of each row (the last dim is
 * discarded): where each entry sets its 1. Every offset is below the output's size < 2^31 (checked by the
 * runtime). The JS side sets them in an output it allocates, so that a large output costs no wasm memory.
 */
@inline function toIndicatorOffsets<I>(
  idx: usize,
  n: i32,
  rank: i32,
  strides: usize,
  ids: usize,
  offsets: usize,
): void {
  const kept = rank - 1;
  for (let i = 0; i < n; i++) {
    const row = rowAt(idx, i, rank);
    let off = <i32>idAt<I>(ids, i);
    for (let d = 0; d < kept; d++) off += getI32(row, d) * getI32(strides, d);
    store<i32>(offsets + ((<usize>i) << 2), off);
  }
}

export function to_indicator_offsets_4(
  idx: usize,
  n: i32,
  rank: i32,
  strides: usize,
  ids: usize,
  offsets: usize,
): void {
  toIndicatorOffsets<i32>(idx, n, rank, strides, ids, offsets);
}
export function to_indicator_offsets_8(
  idx: usize,
  n: i32,
  rank: i32,
  strides: usize,
  ids: usize,
  offsets: usize,
): void {
  toIndicatorOffsets<i64>(idx, n, rank, strides, ids, offsets);
}
