// Hand-written wasm kernels of structural ops (group b): concrete per-dtype exports only.
//
// Index rows are i32 [n × rank], row-major. Values are only moved by these ops, so the generic functions are
// instantiated by element size: 4 bytes (float32, int32) as u32, 8 bytes (float64, int64) as u64. Ids
// (sparse_to_indicator, sparse_merge) are int32 or int64: 4 or 8 bytes, read as a whole number. Every buffer is
// allocated by the JS side (the stub runtime has no GC): these functions never allocate.
import { sortByKeys } from './b-sort';

@inline function ld(p: usize, i: i32): i32 {
  return load<i32>(p + (<usize>i << 2));
}
@inline function st(p: usize, i: i32, v: i32): void {
  store<i32>(p + (<usize>i << 2), v);
}
@inline function rowAt(p: usize, i: i32, rank: i32): usize {
  return p + ((<usize>i * <usize>rank) << 2);
}
@inline function moveValue<T>(dst: usize, k: i32, src: usize, i: i32): void {
  store<T>(dst + <usize>k * sizeof<T>(), load<T>(src + <usize>i * sizeof<T>()));
}
/** An id (int32 or int64, checked by the runtime to lie in [0, vocab) with vocab < 2^31) as an i32. */
@inline function idAt<I>(ids: usize, i: i32): i32 {
  return <i32>load<I>(ids + <usize>i * sizeof<I>());
}

// ---- index rows across the boundary ---------------------------------------------------------------------------
// The JS side speaks indices as Float64Array: copying those bytes in and out is a memcpy, and the f64 <-> i32
// conversion runs here, in SIMD, rather than element by element in JS.

/** dst (i32 [count]) = src (f64 [count]), whole numbers; values beyond i32 saturate (only unread columns have them). */
export function b_rows_in(src: usize, count: i32, dst: usize): void {
  let i = 0;
  for (; i + 4 <= count; i += 4) {
    const a = i32x4.trunc_sat_f64x2_s_zero(v128.load(src + (<usize>i << 3)));
    const b = i32x4.trunc_sat_f64x2_s_zero(v128.load(src + (<usize>i << 3) + 16));
    v128.store(dst + (<usize>i << 2), v128.shuffle<i64>(a, b, 0, 2));
  }
  for (; i < count; i++) store<i32>(dst + (<usize>i << 2), <i32>load<f64>(src + (<usize>i << 3)));
}

/** dst (f64 [count]) = src (i32 [count]). */
export function b_rows_out(src: usize, count: i32, dst: usize): void {
  let i = 0;
  for (; i + 4 <= count; i += 4) {
    const v = v128.load(src + (<usize>i << 2));
    v128.store(dst + (<usize>i << 3), f64x2.convert_low_i32x4_s(v));
    v128.store(dst + (<usize>i << 3) + 16, f64x2.convert_low_i32x4_s(v128.shuffle<i64>(v, v, 1, 1)));
  }
  for (; i < count; i++) store<f64>(dst + (<usize>i << 3), <f64>load<i32>(src + (<usize>i << 2)));
}

// ---- sparse_reshape ------------------------------------------------------------------------------------------

/**
 * Each row's row-major position in the old shape (`inStrides`, K [inRank]) written as an index of the new shape
 * (`outDims`, i32 [outRank]). K is u32 when the dense size is at most 2^32, u64 when below 2^63: every partial
 * sum is at most the position, so the arithmetic is exact.
 */
@inline function reshape<K>(idx: usize, n: i32, inRank: i32, inStrides: usize, outRank: i32, outDims: usize, out: usize): void {
  const ks = <usize>sizeof<K>();
  for (let i = 0; i < n; i++) {
    const row = rowAt(idx, i, inRank);
    let pos: K = 0;
    for (let d = 0; d < inRank; d++) pos += <K>load<i32>(row + (<usize>d << 2)) * load<K>(inStrides + <usize>d * ks);
    const orow = rowAt(out, i, outRank);
    for (let d = outRank - 1; d > 0; d--) {
      const dim = <K>load<i32>(outDims + (<usize>d << 2));
      const q = pos / dim;
      store<i32>(orow + (<usize>d << 2), <i32>(pos - q * dim));
      pos = q;
    }
    if (outRank > 0) store<i32>(orow, <i32>pos);
  }
}

export function b_reshape_32(idx: usize, n: i32, inRank: i32, inStrides: usize, outRank: i32, outDims: usize, out: usize): void {
  reshape<u32>(idx, n, inRank, inStrides, outRank, outDims, out);
}
export function b_reshape_64(idx: usize, n: i32, inRank: i32, inStrides: usize, outRank: i32, outDims: usize, out: usize): void {
  reshape<u64>(idx, n, inRank, inStrides, outRank, outDims, out);
}

// ---- sparse_expand_dims --------------------------------------------------------------------------------------

/**
 * Every row with a 0 inserted at column `at` (0 <= at <= rank). Indices are only moved here, never computed on, so
 * the rows stay the f64 the JS side speaks (8-byte moves, any dim): no conversion either way.
 */
export function b_expand_dims(idx: usize, n: i32, rank: i32, at: i32, out: usize): void {
  const outRank = rank + 1;
  for (let i = 0; i < n; i++) {
    const src = idx + ((<usize>i * <usize>rank) << 3);
    const dst = out + ((<usize>i * <usize>outRank) << 3);
    for (let d = 0; d < at; d++) store<u64>(dst + (<usize>d << 3), load<u64>(src + (<usize>d << 3)));
    store<u64>(dst + (<usize>at << 3), 0);
    for (let d = at; d < rank; d++) store<u64>(dst + (<usize>(d + 1) << 3), load<u64>(src + (<usize>d << 3)));
  }
}

// ---- sparse_slice --------------------------------------------------------------------------------------------

/**
 * The rows with lo[d] <= index[d] < hi[d] in every dim (lo, hi: i32 [rank], clamped to the dense shape by the
 * caller), moved by -lo, with their values, in input order. Returns how many.
 */
@inline function slice<T>(idx: usize, n: i32, rank: i32, lo: usize, hi: usize, vals: usize, outIdx: usize, outVals: usize): i32 {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const row = rowAt(idx, i, rank);
    let inside = true;
    for (let d = 0; d < rank; d++) {
      const x = ld(row, d);
      if (x < ld(lo, d) || x >= ld(hi, d)) {
        inside = false;
        break;
      }
    }
    if (!inside) continue;
    const orow = rowAt(outIdx, m, rank);
    for (let d = 0; d < rank; d++) st(orow, d, ld(row, d) - ld(lo, d));
    moveValue<T>(outVals, m, vals, i);
    m++;
  }
  return m;
}

export function b_slice_4(idx: usize, n: i32, rank: i32, lo: usize, hi: usize, vals: usize, outIdx: usize, outVals: usize): i32 {
  return slice<u32>(idx, n, rank, lo, hi, vals, outIdx, outVals);
}
export function b_slice_8(idx: usize, n: i32, rank: i32, lo: usize, hi: usize, vals: usize, outIdx: usize, outVals: usize): i32 {
  return slice<u64>(idx, n, rank, lo, hi, vals, outIdx, outVals);
}

// ---- sparse_split --------------------------------------------------------------------------------------------

/**
 * A counting sort of the rows by piece along `ax`: the first r pieces span q + 1 positions, the rest q (q >= 1).
 * `ends` (i32 [pieces], zeroed) ends up holding where each piece ends in outIdx/outVals (piece p starts where
 * p - 1 ends); `piece` (i32 [n]) is scratch. Within a piece rows keep their input order; the axis index becomes
 * relative to the piece's start.
 */
@inline function split<T>(
  idx: usize, n: i32, rank: i32, ax: i32, q: i32, r: i32, pieces: i32, ends: usize, piece: usize,
  vals: usize, outIdx: usize, outVals: usize,
): void {
  const big = r * (q + 1);
  for (let i = 0; i < n; i++) {
    const x = ld(rowAt(idx, i, rank), ax);
    const p = x < big ? x / (q + 1) : r + (x - big) / q;
    st(piece, i, p);
    st(ends, p, ld(ends, p) + 1);
  }
  // Exclusive prefix sums: ends[p] = where piece p starts, advanced by the scatter to where it ends.
  let total = 0;
  for (let p = 0; p < pieces; p++) {
    const c = ld(ends, p);
    st(ends, p, total);
    total += c;
  }
  for (let i = 0; i < n; i++) {
    const p = ld(piece, i);
    const k = ld(ends, p);
    st(ends, p, k + 1);
    const src = rowAt(idx, i, rank);
    const dst = rowAt(outIdx, k, rank);
    for (let d = 0; d < rank; d++) st(dst, d, ld(src, d));
    const start = p < r ? p * (q + 1) : big + (p - r) * q;
    st(dst, ax, ld(src, ax) - start);
    moveValue<T>(outVals, k, vals, i);
  }
}

export function b_split_4(idx: usize, n: i32, rank: i32, ax: i32, q: i32, r: i32, pieces: i32, ends: usize, piece: usize, vals: usize, outIdx: usize, outVals: usize): void {
  split<u32>(idx, n, rank, ax, q, r, pieces, ends, piece, vals, outIdx, outVals);
}
export function b_split_8(idx: usize, n: i32, rank: i32, ax: i32, q: i32, r: i32, pieces: i32, ends: usize, piece: usize, vals: usize, outIdx: usize, outVals: usize): void {
  split<u64>(idx, n, rank, ax, q, r, pieces, ends, piece, vals, outIdx, outVals);
}

// ---- sparse_retain -------------------------------------------------------------------------------------------

/**
 * The rows whose flag (u8 [n]) is non-zero, with their values, in input order. Returns how many. The rows are only
 * moved, so they stay the f64 [n × rank] the JS side speaks (8-byte moves, any dim).
 */
@inline function retain<T>(idx: usize, n: i32, rank: i32, mask: usize, vals: usize, outIdx: usize, outVals: usize): i32 {
  const rowBytes = <usize>rank << 3;
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (load<u8>(mask + <usize>i) == 0) continue;
    const src = idx + <usize>i * rowBytes;
    const dst = outIdx + <usize>m * rowBytes;
    for (let d: usize = 0; d < rowBytes; d += 8) store<u64>(dst + d, load<u64>(src + d));
    moveValue<T>(outVals, m, vals, i);
    m++;
  }
  return m;
}

export function b_retain_4(idx: usize, n: i32, rank: i32, mask: usize, vals: usize, outIdx: usize, outVals: usize): i32 {
  return retain<u32>(idx, n, rank, mask, vals, outIdx, outVals);
}
export function b_retain_8(idx: usize, n: i32, rank: i32, mask: usize, vals: usize, outIdx: usize, outVals: usize): i32 {
  return retain<u64>(idx, n, rank, mask, vals, outIdx, outVals);
}

// ---- sparse_reset_shape --------------------------------------------------------------------------------------

/**
 * The tight bounding box of the rows (f64 [n × rank], as the JS side speaks them: whole numbers, compared exactly,
 * any dim): out (f64 [rank]) = max index + 1 per dim, 0 with no rows.
 */
export function b_bounding_box(idx: usize, n: i32, rank: i32, out: usize): void {
  for (let d = 0; d < rank; d++) store<f64>(out + (<usize>d << 3), 0);
  if (rank == 2) {
    // the common matrix case: both maxima in one v128
    let m = f64x2.splat(-1);
    for (let i = 0; i < n; i++) m = f64x2.pmax(m, v128.load(idx + (<usize>i << 4)));
    v128.store(out, f64x2.add(m, f64x2.splat(1)));
    return;
  }
  for (let i = 0; i < n; i++) {
    const row = idx + ((<usize>i * <usize>rank) << 3);
    for (let d = 0; d < rank; d++) {
      const x = load<f64>(row + (<usize>d << 3)) + 1;
      if (x > load<f64>(out + (<usize>d << 3))) store<f64>(out + (<usize>d << 3), x);
    }
  }
}

// ---- sparse_fill_empty_rows ----------------------------------------------------------------------------------

/**
 * First pass: `start` (i32 [rows], zeroed) becomes where each row begins in the output, an empty row taking one
 * place, and `empty` (u8 [rows]) flags the empty rows. Returns the output's entry count.
 */
export function b_fill_rows_plan(idx: usize, n: i32, rank: i32, rows: i32, start: usize, empty: usize): i32 {
  for (let i = 0; i < n; i++) {
    const r = load<i32>(rowAt(idx, i, rank));
    st(start, r, ld(start, r) + 1);
  }
  let total = 0;
  for (let r = 0; r < rows; r++) {
    const c = ld(start, r);
    st(start, r, total);
    store<u8>(empty + <usize>r, c == 0 ? 1 : 0);
    total += c == 0 ? 1 : c;
  }
  return total;
}

/** Second pass: each row's entries in input order at its place, `[row, 0, ..., 0]` with *fill (a T) for an empty row. */
@inline function fillRows<T>(idx: usize, n: i32, rank: i32, rows: i32, start: usize, empty: usize, vals: usize, fill: usize, outIdx: usize, outVals: usize): void {
  for (let i = 0; i < n; i++) {
    const src = rowAt(idx, i, rank);
    const r = load<i32>(src);
    const k = ld(start, r);
    st(start, r, k + 1);
    const dst = rowAt(outIdx, k, rank);
    for (let d = 0; d < rank; d++) st(dst, d, ld(src, d));
    moveValue<T>(outVals, k, vals, i);
  }
  const f = load<T>(fill);
  for (let r = 0; r < rows; r++) {
    if (load<u8>(empty + <usize>r) == 0) continue;
    const k = ld(start, r);
    const dst = rowAt(outIdx, k, rank);
    st(dst, 0, r);
    for (let d = 1; d < rank; d++) st(dst, d, 0);
    store<T>(outVals + <usize>k * sizeof<T>(), f);
  }
}

export function b_fill_rows_4(idx: usize, n: i32, rank: i32, rows: i32, start: usize, empty: usize, vals: usize, fill: usize, outIdx: usize, outVals: usize): void {
  fillRows<u32>(idx, n, rank, rows, start, empty, vals, fill, outIdx, outVals);
}
export function b_fill_rows_8(idx: usize, n: i32, rank: i32, rows: i32, start: usize, empty: usize, vals: usize, fill: usize, outIdx: usize, outVals: usize): void {
  fillRows<u64>(idx, n, rank, rows, start, empty, vals, fill, outIdx, outVals);
}

// ---- sparse_to_indicator -------------------------------------------------------------------------------------

/**
 * out (u8 [size]) = 0, then 1 at offset id + Σ index[d] × strides[d] over the first rank - 1 dims of each row
 * (the last dim is discarded). Every offset is below size < 2^31 (checked by the runtime).
 */
@inline function toIndicator<I>(idx: usize, n: i32, rank: i32, strides: usize, ids: usize, out: usize, size: i32): void {
  memory.fill(out, 0, <usize>size);
  const kept = rank - 1;
  for (let i = 0; i < n; i++) {
    const row = rowAt(idx, i, rank);
    let off = <usize>idAt<I>(ids, i);
    for (let d = 0; d < kept; d++) off += <usize>ld(row, d) * <usize>ld(strides, d);
    store<u8>(out + off, 1);
  }
}

export function b_to_indicator_4(idx: usize, n: i32, rank: i32, strides: usize, ids: usize, out: usize, size: i32): void {
  toIndicator<i32>(idx, n, rank, strides, ids, out, size);
}
export function b_to_indicator_8(idx: usize, n: i32, rank: i32, strides: usize, ids: usize, out: usize, size: i32): void {
  toIndicator<i64>(idx, n, rank, strides, ids, out, size);
}

// ---- sparse_merge --------------------------------------------------------------------------------------------

/**
 * The merged rows (i32 [n × (inRank - 1 + m)]): the first inRank - 1 columns of each row of `idx` followed by the
 * i-th id of each of the m id arrays (`idTable`: u32 [m] pointers to I [n]).
 */
@inline function mergeRows<I>(idx: usize, n: i32, inRank: i32, idTable: usize, m: i32, out: usize): void {
  const kept = inRank - 1;
  const outRank = kept + m;
  for (let i = 0; i < n; i++) {
    const src = rowAt(idx, i, inRank);
    const dst = rowAt(out, i, outRank);
    for (let d = 0; d < kept; d++) st(dst, d, ld(src, d));
    for (let j = 0; j < m; j++) st(dst, kept + j, idAt<I>(<usize>ld(idTable, j), i));
  }
}

export function b_merge_rows_4(idx: usize, n: i32, inRank: i32, idTable: usize, m: i32, out: usize): void {
  mergeRows<i32>(idx, n, inRank, idTable, m, out);
}
export function b_merge_rows_8(idx: usize, n: i32, inRank: i32, idTable: usize, m: i32, out: usize): void {
  mergeRows<i64>(idx, n, inRank, idTable, m, out);
}

/**
 * The stable canonical order of the rows (i32 [n × rank]): each row's row-major offset (`strides`, i64 [rank];
 * the dense size is below 2^63, so offsets are exact) as its key, sorted stably. `perm` (i32 [n]) receives the
 * order; `keys`, `tmpKeys` (i64 [n]) and `tmpPerm` (i32 [n]) are scratch.
 */
export function b_canonical_order(idx: usize, n: i32, rank: i32, strides: usize, keys: usize, perm: usize, tmpKeys: usize, tmpPerm: usize): void {
  for (let i = 0; i < n; i++) {
    const row = rowAt(idx, i, rank);
    let key: i64 = 0;
    for (let d = 0; d < rank; d++) key += <i64>ld(row, d) * load<i64>(strides + (<usize>d << 3));
    store<i64>(keys + (<usize>i << 3), key);
  }
  sortByKeys(keys, perm, n, tmpKeys, tmpPerm);
}

/** Rows and values taken in `perm` order (i32 [n]). */
@inline function gather<T>(perm: usize, n: i32, rank: i32, idx: usize, vals: usize, outIdx: usize, outVals: usize): void {
  for (let k = 0; k < n; k++) {
    const i = ld(perm, k);
    const src = rowAt(idx, i, rank);
    const dst = rowAt(outIdx, k, rank);
    for (let d = 0; d < rank; d++) st(dst, d, ld(src, d));
    moveValue<T>(outVals, k, vals, i);
  }
}

export function b_gather_4(perm: usize, n: i32, rank: i32, idx: usize, vals: usize, outIdx: usize, outVals: usize): void {
  gather<u32>(perm, n, rank, idx, vals, outIdx, outVals);
}
export function b_gather_8(perm: usize, n: i32, rank: i32, idx: usize, vals: usize, outIdx: usize, outVals: usize): void {
  gather<u64>(perm, n, rank, idx, vals, outIdx, outVals);
}
