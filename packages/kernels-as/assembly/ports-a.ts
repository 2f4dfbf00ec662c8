// Hand-written wasm kernels of structural ops (group a): concrete per-dtype exports only.
// sparse_reorder, sparse_transpose, sparse_concat (sort + gather, by element size), from_dense, sparse_softmax,
// sparse_segment_sum (per dtype). Index rows are i32 [n × rank] row-major; every buffer comes from the JS side.

import { gatherRows, gatherValues, sortEntries } from './a-sort';
import { fdlibmExp, fdlibmExp2 } from './a-exp';

export { a_exp_f64 } from './a-exp';

// ---------------------------------------------------------------------------------------------------------------
// Sort + gather: reorder, and transpose / concat after their index rewrite.

/**
 * Puts n entries (i32 rows `idx`, values `vals`) in canonical order into `outIdx` / `outVals`, stably: the radix
 * sort of a-sort.ts over the column chunks the caller chose (`strides` rank u64, `bounds` chunks + 1 i32), with
 * keys/keys2 (n u64), order/order2 (n u32) and hist (6 × 2048 u32) as scratch.
 */
@inline function reorder<T>(
  idx: usize, n: i32, rank: i32, vals: usize, outIdx: usize, outVals: usize,
  strides: usize, bounds: usize, chunks: i32, keys: usize, keys2: usize, order: usize, order2: usize, hist: usize,
): void {
  const sorted = sortEntries(idx, n, rank, strides, bounds, chunks, keys, keys2, order, order2, hist);
  gatherRows(idx, rank, sorted, n, outIdx);
  gatherValues<T>(vals, sorted, n, outVals);
}

export function a_reorder_4(
  idx: usize, n: i32, rank: i32, vals: usize, outIdx: usize, outVals: usize,
  strides: usize, bounds: usize, chunks: i32, keys: usize, keys2: usize, order: usize, order2: usize, hist: usize,
): void {
  reorder<u32>(idx, n, rank, vals, outIdx, outVals, strides, bounds, chunks, keys, keys2, order, order2, hist);
}
export function a_reorder_8(
  idx: usize, n: i32, rank: i32, vals: usize, outIdx: usize, outVals: usize,
  strides: usize, bounds: usize, chunks: i32, keys: usize, keys2: usize, order: usize, order2: usize, hist: usize,
): void {
  reorder<u64>(idx, n, rank, vals, outIdx, outVals, strides, bounds, chunks, keys, keys2, order, order2, hist);
}

/** out row i, column d = idx row i, column perm[d] (perm: rank i32). */
export function a_permute_cols(idx: usize, n: i32, rank: i32, perm: usize, out: usize): void {
  if (rank == 2 && load<i32>(perm) == 1) {
    for (let i = 0; i < n; i++) {
      const p = <usize>i << 3;
      store<i32>(out + p, load<i32>(idx + p + 4));
      store<i32>(out + p + 4, load<i32>(idx + p));
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const row = (<usize>i * <usize>rank) << 2;
    for (let d = 0; d < rank; d++) {
      store<i32>(out + row + (<usize>d << 2), load<i32>(idx + row + (<usize>load<i32>(perm + (<usize>d << 2)) << 2)));
    }
  }
}

/** Adds `offset` to column `ax` of n rows (concat: an input's entries move along the axis). */
export function a_shift_col(idx: usize, n: i32, rank: i32, ax: i32, offset: i32): void {
  if (offset == 0) return;
  const stride = <usize>rank << 2;
  let p = idx + (<usize>ax << 2);
  for (let i = 0; i < n; i++, p += stride) store<i32>(p, load<i32>(p) + offset);
}

// ---------------------------------------------------------------------------------------------------------------
// from_dense: the non-zeros of dense data (v != 0: -0 is zero, NaN is kept), in row-major order.

@inline function lanesNonzero<T>(v: v128): v128 {
  const z = i64x2.splat(0);
  if (isFloat<T>()) return sizeof<T>() == 4 ? f32x4.ne(v, z) : f64x2.ne(v, z);
  return sizeof<T>() == 4 ? i32x4.ne(v, z) : i64x2.ne(v, z);
}

@inline function maskNonzero<T>(v: v128): i32 {
  const m = lanesNonzero<T>(v);
  return sizeof<T>() == 4 ? i32x4.bitmask(m) : i64x2.bitmask(m);
}

/** How many of the `size` elements are not zero. */
@inline function countNonzero<T>(data: usize, size: i32): i32 {
  const lanes = 16 / <i32>sizeof<T>();
  const nv = size - (size % lanes);
  let count = 0;
  let i = 0;
  for (; i < nv; i += lanes) count += <i32>popcnt<i32>(maskNonzero<T>(v128.load(data + (<usize>i << alignof<T>()))));
  for (; i < size; i++) if (load<T>(data + (<usize>i << alignof<T>())) != 0) count++;
  return count;
}

/**
 * Writes the index row and value of every non-zero of dense data of `shape` (rank i32; `counter` rank zeroed
 * i32, the odometer over the outer dims) into outIdx / outVals; returns how many. Rank 0 is one element.
 */
@inline function fromDense<T>(data: usize, shape: usize, rank: i32, counter: usize, outIdx: usize, outVals: usize): i32 {
  const outer = rank == 0 ? 0 : rank - 1;
  const inner = rank == 0 ? 1 : load<i32>(shape + (<usize>outer << 2));
  let rows = 1;
  for (let d = 0; d < outer; d++) rows *= load<i32>(shape + (<usize>d << 2));
  if (inner == 0 || rows == 0) return 0;
  const lanes = 16 / <i32>sizeof<T>();
  const rowBytes = <usize>rank << 2;
  let k = 0;
  let src = data;
  for (let r = 0; r < rows; r++) {
    let j = 0;
    while (j < inner) {
      // Skip a vector of zeros at once; otherwise take elements one by one.
      if (j + lanes <= inner && maskNonzero<T>(v128.load(src + (<usize>j << alignof<T>()))) == 0) {
        j += lanes;
        continue;
      }
      const end = min(j + lanes, inner);
      for (; j < end; j++) {
        const v = load<T>(src + (<usize>j << alignof<T>()));
        if (v != 0) {
          const row = outIdx + <usize>k * rowBytes;
          if (outer > 0) memory.copy(row, counter, <usize>outer << 2);
          if (rank > 0) store<i32>(row + (<usize>outer << 2), j);
          store<T>(outVals + (<usize>k << alignof<T>()), v);
          k++;
        }
      }
    }
    src += <usize>inner << alignof<T>();
    // The odometer over the outer dims: amortized O(1) a row.
    for (let d = outer - 1; d >= 0; d--) {
      const p = counter + (<usize>d << 2);
      const x = load<i32>(p) + 1;
      if (x < load<i32>(shape + (<usize>d << 2))) {
        store<i32>(p, x);
        break;
      }
      store<i32>(p, 0);
    }
  }
  return k;
}

export function a_count_nonzero_float32(data: usize, size: i32): i32 {
  return countNonzero<f32>(data, size);
}
export function a_count_nonzero_float64(data: usize, size: i32): i32 {
  return countNonzero<f64>(data, size);
}
export function a_count_nonzero_int32(data: usize, size: i32): i32 {
  return countNonzero<i32>(data, size);
}
export function a_count_nonzero_int64(data: usize, size: i32): i32 {
  return countNonzero<i64>(data, size);
}
export function a_from_dense_float32(data: usize, shape: usize, rank: i32, counter: usize, outIdx: usize, outVals: usize): i32 {
  return fromDense<f32>(data, shape, rank, counter, outIdx, outVals);
}
export function a_from_dense_float64(data: usize, shape: usize, rank: i32, counter: usize, outIdx: usize, outVals: usize): i32 {
  return fromDense<f64>(data, shape, rank, counter, outIdx, outVals);
}
export function a_from_dense_int32(data: usize, shape: usize, rank: i32, counter: usize, outIdx: usize, outVals: usize): i32 {
  return fromDense<i32>(data, shape, rank, counter, outIdx, outVals);
}
export function a_from_dense_int64(data: usize, shape: usize, rank: i32, counter: usize, outIdx: usize, outVals: usize): i32 {
  return fromDense<i64>(data, shape, rank, counter, outIdx, outVals);
}

// ---------------------------------------------------------------------------------------------------------------
// sparse_softmax: per innermost row (a run of entries agreeing on every dim but the last; the input is in
// canonical order), exp(x - max) × (1 / Σ exp), in the dtype. float32 rounds every step to f32 as the JS kernel
// does; its exp is taken in f64 and rounded, as the JS kernel's fround(Math.exp(x)). exp is V8's (fdlibm's)
// algorithm, so both dtypes give the JS kernel's values to the bit.

@inline function sameRow(idx: usize, i: i32, j: i32, rank: i32): bool {
  if (rank == 2) return load<i32>(idx + (<usize>i << 3)) == load<i32>(idx + (<usize>j << 3));
  const a = idx + ((<usize>i * <usize>rank) << 2);
  const b = idx + ((<usize>j * <usize>rank) << 2);
  for (let d = 0; d < rank - 1; d++) if (load<i32>(a + (<usize>d << 2)) != load<i32>(b + (<usize>d << 2))) return false;
  return true;
}

@inline function expT<T>(x: T): T {
  return sizeof<T>() == 4 ? <T>(<f32>fdlibmExp(<f64>x)) : <T>fdlibmExp(<f64>x);
}

@inline function softmax<T>(idx: usize, n: i32, rank: i32, src: usize, out: usize): void {
  const sh = alignof<T>();
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && sameRow(idx, start, end, rank)) end++;
    // max propagates NaN, as Math.max.
    let m = load<T>(src + (<usize>start << sh));
    for (let i = start + 1; i < end; i++) m = max<T>(m, load<T>(src + (<usize>i << sh)));
    // exp(x - max), two at a time (the lanes compute what the scalar code does, bit for bit).
    let i = start;
    if (sizeof<T>() == 8) {
      const mv = f64x2.splat(<f64>m);
      for (; i + 2 <= end; i += 2) {
        const off = <usize>i << 3;
        v128.store(out + off, fdlibmExp2(f64x2.sub(v128.load(src + off), mv)));
      }
    } else {
      const mv = f32x4.splat(<f32>m);
      for (; i + 2 <= end; i += 2) {
        const off = <usize>i << 2;
        const d = f32x4.sub(v128.load64_zero(src + off), mv);
        v128.store64_lane(out + off, f32x4.demote_f64x2_zero(fdlibmExp2(f64x2.promote_low_f32x4(d))), 0);
      }
    }
    for (; i < end; i++) store<T>(out + (<usize>i << sh), expT<T>(load<T>(src + (<usize>i << sh)) - m));
    // The sum in entry order, in the dtype.
    let sum: T = 0;
    for (let j = start; j < end; j++) sum += load<T>(out + (<usize>j << sh));
    const inv: T = <T>1 / sum;
    for (let j = start; j < end; j++) store<T>(out + (<usize>j << sh), load<T>(out + (<usize>j << sh)) * inv);
    start = end;
  }
}

export function a_softmax_float32(idx: usize, n: i32, rank: i32, src: usize, out: usize): void {
  softmax<f32>(idx, n, rank, src, out);
}
export function a_softmax_float64(idx: usize, n: i32, rank: i32, src: usize, out: usize): void {
  softmax<f64>(idx, n, rank, src, out);
}

// ---------------------------------------------------------------------------------------------------------------
// sparse_segment_sum: out[ids[i]] += data[idx[i]], rows of `inner` elements (out zeroed by the caller), in the
// dtype: float32 rounds each sum, integers wrap. The lanes add exactly as the scalar loop would.

@inline function vaddT<T>(a: v128, b: v128): v128 {
  if (isFloat<T>()) return sizeof<T>() == 4 ? f32x4.add(a, b) : f64x2.add(a, b);
  return sizeof<T>() == 4 ? i32x4.add(a, b) : i64x2.add(a, b);
}

@inline function segmentSum<T>(data: usize, inner: i32, idx: usize, ids: usize, n: i32, out: usize): void {
  const sh = alignof<T>();
  const rowBytes = <usize>inner << sh;
  const lanes = 16 / <i32>sizeof<T>();
  const nv = inner - (inner % lanes);
  for (let i = 0; i < n; i++) {
    const o = out + <usize>load<i32>(ids + (<usize>i << 2)) * rowBytes;
    const s = data + <usize>load<i32>(idx + (<usize>i << 2)) * rowBytes;
    let j = 0;
    for (; j < nv; j += lanes) {
      const off = <usize>j << sh;
      v128.store(o + off, vaddT<T>(v128.load(o + off), v128.load(s + off)));
    }
    for (; j < inner; j++) {
      const off = <usize>j << sh;
      store<T>(o + off, load<T>(o + off) + load<T>(s + off));
    }
  }
}

export function a_segment_sum_float32(data: usize, inner: i32, idx: usize, ids: usize, n: i32, out: usize): void {
  segmentSum<f32>(data, inner, idx, ids, n, out);
}
export function a_segment_sum_float64(data: usize, inner: i32, idx: usize, ids: usize, n: i32, out: usize): void {
  segmentSum<f64>(data, inner, idx, ids, n, out);
}
export function a_segment_sum_int32(data: usize, inner: i32, idx: usize, ids: usize, n: i32, out: usize): void {
  segmentSum<i32>(data, inner, idx, ids, n, out);
}
export function a_segment_sum_int64(data: usize, inner: i32, idx: usize, ids: usize, n: i32, out: usize): void {
  segmentSum<i64>(data, inner, idx, ids, n, out);
}

/** In place: n i64 whole numbers (each fits i32) narrowed to i32, from the front (each write lands at or before its read). */
export function a_narrow_i64(p: usize, n: i32): void {
  for (let i = 0; i < n; i++) store<i32>(p + (<usize>i << 2), <i32>load<i64>(p + (<usize>i << 3)));
}

