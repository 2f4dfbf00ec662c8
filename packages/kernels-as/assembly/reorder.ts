// Canonical order in wasm: sparse_reorder's stable sort + gather, which sparse_transpose (columns permuted here),
// sparse_concat (entries moved along the axis here) and sparse_merge (rows built in merge-rows.ts) end with. Values
// are only moved, so the sort is instantiated by element size: 4 bytes (float32, int32) and 8 (float64, int64).

import { gatherRows, gatherValues, sortEntries } from './radix-sort';

/**
 * Puts n entries (i32 rows `idx`, values `vals`) in canonical order into `outIdx` / `outVals`, stably: the radix
 * sort of radix-sort.ts over the column chunks the caller chose (`strides` rank u64, `bounds` chunks + 1 i32), with
 * keys/keys2 (n u64), order/order2 (n u32) and hist (6 × 2048 u32) as scratch.
 */
@inline function reorder<T>(
  idx: usize,
  n: i32,
  rank: i32,
  vals: usize,
  outIdx: usize,
  outVals: usize,
  strides: usize,
  bounds: usize,
  chunks: i32,
  keys: usize,
  keys2: usize,
  order: usize,
  order2: usize,
  hist: usize,
): void {
  const sorted = sortEntries(idx, n, rank, strides, bounds, chunks, keys, keys2, order, order2, hist);
  gatherRows(idx, rank, sorted, n, outIdx);
  gatherValues<T>(vals, sorted, n, outVals);
}

export function reorder_4(
  idx: usize,
  n: i32,
  rank: i32,
  vals: usize,
  outIdx: usize,
  outVals: usize,
  strides: usize,
  bounds: usize,
  chunks: i32,
  keys: usize,
  keys2: usize,
  order: usize,
  order2: usize,
  hist: usize,
): void {
  reorder<u32>(idx, n, rank, vals, outIdx, outVals, strides, bounds, chunks, keys, keys2, order, order2, hist);
}
export function reorder_8(
  idx: usize,
  n: i32,
  rank: i32,
  vals: usize,
  outIdx: usize,
  outVals: usize,
  strides: usize,
  bounds: usize,
  chunks: i32,
  keys: usize,
  keys2: usize,
  order: usize,
  order2: usize,
  hist: usize,
): void {
  reorder<u64>(idx, n, rank, vals, outIdx, outVals, strides, bounds, chunks, keys, keys2, order, order2, hist);
}

/** out row i, column d = idx row i, column perm[d] (perm: rank i32). */
export function permute_cols(idx: usize, n: i32, rank: i32, perm: usize, out: usize): void {
  if (rank == 2 && load<i32>(perm) == 1) {
    for (let i = 0; i < n; i++) {
      const p = (<usize>i) << 3;
      store<i32>(out + p, load<i32>(idx + p + 4));
      store<i32>(out + p + 4, load<i32>(idx + p));
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const row = (<usize>i * <usize>rank) << 2;
    for (let d = 0; d < rank; d++) {
      store<i32>(
        out + row + ((<usize>d) << 2),
        load<i32>(idx + row + ((<usize>load<i32>(perm + ((<usize>d) << 2))) << 2)),
      );
    }
  }
}

/** Adds `offset` to column `ax` of n rows (concat: an input's entries move along the axis). */
export function shift_col(idx: usize, n: i32, rank: i32, ax: i32, offset: i32): void {
  if (offset == 0) return;
  const stride = (<usize>rank) << 2;
  let p = idx + ((<usize>ax) << 2);
  for (let i = 0; i < n; i++, p += stride) store<i32>(p, load<i32>(p) + offset);
}

/**
 * The stable canonical order of n i32 index rows (radix-sort.ts's sortEntries, with the same scratch as reorder):
 * the buffer, `order` or `order2`, holding the entry numbers (u32) in row-major order.
 */
export function sort_order(
  idx: usize,
  n: i32,
  rank: i32,
  strides: usize,
  bounds: usize,
  chunks: i32,
  keys: usize,
  keys2: usize,
  order: usize,
  order2: usize,
  hist: usize,
): usize {
  return sortEntries(idx, n, rank, strides, bounds, chunks, keys, keys2, order, order2, hist);
}
