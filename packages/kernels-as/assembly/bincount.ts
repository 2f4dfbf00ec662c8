// sparse_bincount in wasm: the counted values keyed as i32 rows ([row, value] counting by row, else [value]), put
// in canonical order by the shared radix sort (reorder.ts's sort_order), then each run of one key summed into one
// output entry, in that order, so that float32 weight sums round entry by entry as TensorFlow's.

/** How each counted value adds to its key's entry (the mode): 1 (mode 0), its weight, or a 1 that stays 1. */
const WEIGHTS: i32 = 1;
const BINARY: i32 = 2;

/**
 * The entries of n values (V) that count, those below `maxlength` unless it is < 0: their keys (i32 rows, the
 * input's first index column `idx` of `rank`-wide rows before the value where `byRow`) and their entry numbers (u32).
 * Returns how many; writes the largest of them (0 if none, as TensorFlow starts it) at `largest` as i64. The caller
 * has checked every value >= 0, and uses the keys only where every counted value fits i32.
 */
@inline function countedKeys<V>(
  vals: usize,
  n: i32,
  maxlength: i64,
  idx: usize,
  rank: i32,
  byRow: i32,
  keys: usize,
  counted: usize,
  largest: usize,
): i32 {
  let m = 0;
  let big: i64 = 0;
  for (let i = 0; i < n; i++) {
    const v = <i64>load<V>(vals + ((<usize>i) << alignof<V>()));
    if (maxlength >= 0 && v >= maxlength) continue;
    if (byRow) {
      const key = keys + ((<usize>m) << 3);
      store<i32>(key, load<i32>(idx + ((<usize>i * <usize>rank) << 2)));
      store<i32>(key + 4, <i32>v);
    } else {
      store<i32>(keys + ((<usize>m) << 2), <i32>v);
    }
    store<u32>(counted + ((<usize>m) << 2), <u32>i);
    if (v > big) big = v;
    m++;
  }
  store<i64>(largest, big);
  return m;
}

export function bincount_keys_int32(
  vals: usize,
  n: i32,
  maxlength: i64,
  idx: usize,
  rank: i32,
  byRow: i32,
  keys: usize,
  counted: usize,
  largest: usize,
): i32 {
  return countedKeys<i32>(vals, n, maxlength, idx, rank, byRow, keys, counted, largest);
}
export function bincount_keys_int64(
  vals: usize,
  n: i32,
  maxlength: i64,
  idx: usize,
  rank: i32,
  byRow: i32,
  keys: usize,
  counted: usize,
  largest: usize,
): i32 {
  return countedKeys<i64>(vals, n, maxlength, idx, rank, byRow, keys, counted, largest);
}

@inline function sameKey(a: usize, b: usize, r: i32): bool {
  return load<i32>(a) == load<i32>(b) && (r == 1 || load<i32>(a + 4) == load<i32>(b + 4));
}

/**
 * Walks the m counted entries in key order (`order`, u32 positions among them) and writes one entry per run of one
 * key: the key (i32 rows of r) to `outIdx`, and to `outVals` (W) the sum from 0 of 1 or of each entry's weight (W,
 * `weights` by input entry, `counted` mapping), or 1 (BINARY). Returns how many entries.
 */
@inline function keyRuns<W>(
  keys: usize,
  r: i32,
  counted: usize,
  order: usize,
  m: i32,
  weights: usize,
  mode: i32,
  outIdx: usize,
  outVals: usize,
): i32 {
  const keyBytes = (<usize>r) << 2;
  let e = -1;
  let prev: usize = 0;
  for (let k = 0; k < m; k++) {
    const j = <usize>load<u32>(order + ((<usize>k) << 2));
    const key = keys + j * keyBytes;
    let w: W = <W>1;
    if (mode == WEIGHTS) w = load<W>(weights + ((<usize>load<u32>(counted + (j << 2))) << alignof<W>()));
    if (e < 0 || !sameKey(key, prev, r)) {
      e++;
      const dst = outIdx + <usize>e * keyBytes;
      store<i32>(dst, load<i32>(key));
      if (r == 2) store<i32>(dst + 4, load<i32>(key + 4));
      // Each sum starts at 0, as TensorFlow's map starts each count (0 + -0.0 is 0).
      store<W>(outVals + ((<usize>e) << alignof<W>()), mode == BINARY ? <W>1 : <W>0 + w);
      prev = key;
    } else if (mode != BINARY) {
      const p = outVals + ((<usize>e) << alignof<W>());
      store<W>(p, load<W>(p) + w);
    }
  }
  return e + 1;
}

export function bincount_runs_float32(
  keys: usize,
  r: i32,
  counted: usize,
  order: usize,
  m: i32,
  weights: usize,
  mode: i32,
  outIdx: usize,
  outVals: usize,
): i32 {
  return keyRuns<f32>(keys, r, counted, order, m, weights, mode, outIdx, outVals);
}
export function bincount_runs_float64(
  keys: usize,
  r: i32,
  counted: usize,
  order: usize,
  m: i32,
  weights: usize,
  mode: i32,
  outIdx: usize,
  outVals: usize,
): i32 {
  return keyRuns<f64>(keys, r, counted, order, m, weights, mode, outIdx, outVals);
}
export function bincount_runs_int32(
  keys: usize,
  r: i32,
  counted: usize,
  order: usize,
  m: i32,
  weights: usize,
  mode: i32,
  outIdx: usize,
  outVals: usize,
): i32 {
  return keyRuns<i32>(keys, r, counted, order, m, weights, mode, outIdx, outVals);
}
export function bincount_runs_int64(
  keys: usize,
  r: i32,
  counted: usize,
  order: usize,
  m: i32,
  weights: usize,
  mode: i32,
  outIdx: usize,
  outVals: usize,
): i32 {
  return keyRuns<i64>(keys, r, counted, order, m, weights, mode, outIdx, outVals);
}
