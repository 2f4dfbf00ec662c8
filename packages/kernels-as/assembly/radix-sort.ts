// A stable sort of entries into canonical row-major order, shared by reorder, transpose, concat and merge.
// It sorts a permutation (u32 entry numbers), never the entries themselves: the caller gathers rows and values
// by the order it returns. The index columns are cut into chunks, from the last column, each as many columns as
// a u64 mixed-radix key holds exactly (the product of their dims at most 2^64): one chunk when the dense size
// fits, the linear offset itself. A stable LSD radix sort (digits of at most 11 bits, only over the bits the
// largest key uses, skipping passes where every key has one digit) runs on the last chunk's keys, then on the
// one before...:
// lexicographic order over any dense size, without comparing rows. An input already in order costs one linear
// check. Every buffer comes from the caller (JS heap); nothing is allocated here.

import { compareRows } from './rows';

/** The widest digit: a u64 key takes at most ceil(64 / 11) = 6 passes, so `hist` holds 6 × 2^11 u32. */
const RADIX_BITS: i32 = 11;
/** Below this many entries an insertion sort beats the radix sort's histograms. */
const SMALL: i32 = 64;

@inline function u32At(p: usize, i: i32): u32 {
  return load<u32>(p + ((<usize>i) << 2));
}
@inline function setU32(p: usize, i: i32, v: u32): void {
  store<u32>(p + ((<usize>i) << 2), v);
}
@inline function u64At(p: usize, i: i32): u64 {
  return load<u64>(p + ((<usize>i) << 3));
}
@inline function setU64(p: usize, i: i32, v: u64): void {
  store<u64>(p + ((<usize>i) << 3), v);
}

/**
 * keys[i] = Σ_{d in [d0, d1)} idx[order[i]][d] × strides[d] (u64): the mixed-radix key of columns d0..d1 of
 * entry order[i], or of entry i itself with `direct` (order is still the identity).
 */
function chunkKeys(
  idx: usize,
  n: i32,
  rank: i32,
  d0: i32,
  d1: i32,
  strides: usize,
  order: usize,
  direct: bool,
  keys: usize,
): void {
  if (direct && rank == 2 && d0 == 0 && d1 == 2) {
    const s0 = load<u64>(strides);
    const s1 = load<u64>(strides + 8);
    for (let i = 0; i < n; i++) {
      const row = idx + ((<usize>i) << 3);
      setU64(keys, i, <u64>load<i32>(row) * s0 + <u64>load<i32>(row + 4) * s1);
    }
    return;
  }
  if (d1 - d0 == 1) {
    const s = load<u64>(strides + ((<usize>d0) << 3));
    const col = idx + ((<usize>d0) << 2);
    const rowBytes = (<usize>rank) << 2;
    for (let i = 0; i < n; i++) {
      const e = direct ? <usize>i : <usize>u32At(order, i);
      setU64(keys, i, <u64>load<i32>(col + e * rowBytes) * s);
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const e = direct ? <usize>i : <usize>u32At(order, i);
    const row = idx + ((e * <usize>rank) << 2);
    let k: u64 = 0;
    for (let d = d0; d < d1; d++) k += <u64>load<i32>(row + ((<usize>d) << 2)) * load<u64>(strides + ((<usize>d) << 3));
    setU64(keys, i, k);
  }
}

@inline function identity(order: usize, n: i32): void {
  for (let i = 0; i < n; i++) setU32(order, i, <u32>i);
}

/**
 * Sorts n u64 keys stably, carrying `order` (n u32) along: returns the buffer (`order` or `order2`) that holds
 * the carried entry numbers in key order. `keys` and `keys2` (n u64 each) are overwritten; `hist` holds
 * 6 × 2^11 u32.
 */
function sortKeys(keys: usize, n: i32, order: usize, keys2: usize, order2: usize, hist: usize): usize {
  if (n < 2) return order;
  let sorted = true;
  let maxKey: u64 = u64At(keys, 0);
  for (let i = 1; i < n; i++) {
    const k = u64At(keys, i);
    if (k < u64At(keys, i - 1)) sorted = false;
    if (k > maxKey) maxKey = k;
  }
  if (sorted) return order;
  if (n < SMALL) {
    // Stable insertion sort of (key, entry) pairs.
    for (let i = 1; i < n; i++) {
      const k = u64At(keys, i);
      const o = u32At(order, i);
      let j = i - 1;
      while (j >= 0 && u64At(keys, j) > k) {
        setU64(keys, j + 1, u64At(keys, j));
        setU32(order, j + 1, u32At(order, j));
        j--;
      }
      setU64(keys, j + 1, k);
      setU32(order, j + 1, o);
    }
    return order;
  }
  // As few passes as 11-bit digits need, each digit then as narrow as they allow (fewer buckets, kinder to cache).
  const bits = 64 - <i32>clz<u64>(maxKey);
  const passes = (bits + RADIX_BITS - 1) / RADIX_BITS;
  const width = (bits + passes - 1) / passes;
  const buckets = 1 << width;
  const mask: u64 = <u64>(buckets - 1);
  // Every pass's histogram in one read of the keys.
  memory.fill(hist, 0, (<usize>passes * <usize>buckets) << 2);
  for (let i = 0; i < n; i++) {
    let k = u64At(keys, i);
    let h = hist;
    for (let p = 0; p < passes; p++) {
      const slot = h + ((<usize>(k & mask)) << 2);
      store<u32>(slot, load<u32>(slot) + 1);
      k >>= <u64>width;
      h += (<usize>buckets) << 2;
    }
  }
  let srcK = keys;
  let srcO = order;
  let dstK = keys2;
  let dstO = order2;
  for (let p = 0; p < passes; p++) {
    const h = hist + ((<usize>(p * buckets)) << 2);
    const shift = <u64>(p * width);
    // A pass where every key has the same digit would leave the order as it is.
    if (load<u32>(h + ((<usize>((u64At(srcK, 0) >> shift) & mask)) << 2)) == <u32>n) continue;
    // Exclusive prefix sums: the first slot of each digit.
    let sum: u32 = 0;
    for (let d = 0; d < buckets; d++) {
      const c = load<u32>(h + ((<usize>d) << 2));
      store<u32>(h + ((<usize>d) << 2), sum);
      sum += c;
    }
    if (p == passes - 1) {
      // The last pass moves only the entry numbers.
      for (let i = 0; i < n; i++) {
        const slot = h + ((<usize>((u64At(srcK, i) >> shift) & mask)) << 2);
        const at = load<u32>(slot);
        store<u32>(slot, at + 1);
        setU32(dstO, <i32>at, u32At(srcO, i));
      }
    } else {
      for (let i = 0; i < n; i++) {
        const k = u64At(srcK, i);
        const slot = h + ((<usize>((k >> shift) & mask)) << 2);
        const at = load<u32>(slot);
        store<u32>(slot, at + 1);
        setU64(dstK, <i32>at, k);
        setU32(dstO, <i32>at, u32At(srcO, i));
      }
    }
    let t = srcK;
    srcK = dstK;
    dstK = t;
    t = srcO;
    srcO = dstO;
    dstO = t;
  }
  return srcO;
}

/** Whether the n index rows are in non-decreasing row-major order. */
function rowsSorted(idx: usize, n: i32, rank: i32): bool {
  if (rank == 2) {
    let prev = load<u64>(idx);
    for (let i = 1; i < n; i++) {
      const cur = load<u64>(idx + ((<usize>i) << 3));
      // (row, col) as one u64 with the row high: both are >= 0.
      if (rotr<u64>(cur, 32) < rotr<u64>(prev, 32)) return false;
      prev = cur;
    }
    return true;
  }
  for (let i = 1; i < n; i++) if (compareRows(idx, i - 1, idx, i, rank) > 0) return false;
  return true;
}

/**
 * The stable canonical order of n i32 index rows [n × rank]: returns the buffer (`order` or `order2`, n u32 each)
 * holding entry numbers in row-major order. `strides` (rank u64) are the mixed-radix strides within each chunk
 * and `bounds` (chunks + 1 i32) the chunks' first columns, then rank; keys/keys2 n u64, hist 6 × 2^11 u32.
 */
export function sortEntries(
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
  identity(order, n);
  if (n < 2 || rowsSorted(idx, n, rank)) return order;
  let cur = order;
  let other = order2;
  for (let c = chunks - 1; c >= 0; c--) {
    const d0 = load<i32>(bounds + ((<usize>c) << 2));
    const d1 = load<i32>(bounds + ((<usize>(c + 1)) << 2));
    chunkKeys(idx, n, rank, d0, d1, strides, cur, c == chunks - 1, keys);
    const sorted = sortKeys(keys, n, cur, keys2, other, hist);
    if (sorted != cur) {
      other = cur;
      cur = sorted;
    }
  }
  return cur;
}

/** out row k = idx row order[k] (i32 [n × rank]). */
export function gatherRows(idx: usize, rank: i32, order: usize, n: i32, out: usize): void {
  if (rank == 2) {
    for (let k = 0; k < n; k++) store<u64>(out + ((<usize>k) << 3), load<u64>(idx + ((<usize>u32At(order, k)) << 3)));
    return;
  }
  if (rank == 1) {
    for (let k = 0; k < n; k++) setU32(out, k, u32At(idx, <i32>u32At(order, k)));
    return;
  }
  const bytes = (<usize>rank) << 2;
  for (let k = 0; k < n; k++) {
    const src = idx + <usize>u32At(order, k) * bytes;
    const dst = out + <usize>k * bytes;
    for (let d: usize = 0; d < bytes; d += 4) store<i32>(dst + d, load<i32>(src + d));
  }
}

/** out[k] = vals[order[k]], values of T (moved, never computed: u32 or u64). */
export function gatherValues<T>(vals: usize, order: usize, n: i32, out: usize): void {
  const size = <usize>sizeof<T>();
  for (let k = 0; k < n; k++) store<T>(out + <usize>k * size, load<T>(vals + <usize>u32At(order, k) * size));
}
