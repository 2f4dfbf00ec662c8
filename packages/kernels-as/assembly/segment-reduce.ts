// The sparse segment reductions: out[ids[i]] += data[idx[i]], rows of `inner` elements (out zeroed by the caller),
// in the dtype: float32 rounds each sum, integers wrap. The lanes add exactly as the scalar loop would. With `mode`
// MEAN or 2 (sqrt_n; floats only) each segment's row is scaled as its run of (sorted) ids ends, as TensorFlow's CPU
// kernel scales it: by the reciprocal of the divisor (the count, or its square root) below 10 rows, by the divisor
// itself from 10 on. Mode 0 is the sum.

const MEAN: i32 = 1;

@inline function vaddT<T>(a: v128, b: v128): v128 {
  if (isFloat<T>()) return sizeof<T>() == 4 ? f32x4.add(a, b) : f64x2.add(a, b);
  return sizeof<T>() == 4 ? i32x4.add(a, b) : i64x2.add(a, b);
}

/** Scales a float row of `inner` elements for a segment of `count` (> 1) rows: see the head of this file. */
@inline function scaleRow<T>(row: usize, inner: i32, count: i32, mode: i32): void {
  if (!isFloat<T>()) return;
  const sh = alignof<T>();
  const lanes = 16 / <i32>sizeof<T>();
  const nv = inner - (inner % lanes);
  const m: T = mode == MEAN ? <T>count : <T>Math.sqrt(<f64>count);
  const multiply = count < 10;
  const f: T = multiply ? <T>1 / m : m;
  const fv: v128 = sizeof<T>() == 4 ? f32x4.splat(<f32>f) : f64x2.splat(<f64>f);
  let j = 0;
  for (; j < nv; j += lanes) {
    const p = row + ((<usize>j) << sh);
    const x = v128.load(p);
    let y: v128;
    if (sizeof<T>() == 4) y = multiply ? f32x4.mul(x, fv) : f32x4.div(x, fv);
    else y = multiply ? f64x2.mul(x, fv) : f64x2.div(x, fv);
    v128.store(p, y);
  }
  for (; j < inner; j++) {
    const p = row + ((<usize>j) << sh);
    store<T>(p, multiply ? load<T>(p) * f : load<T>(p) / f);
  }
}

@inline function segmentReduce<T>(
  data: usize,
  inner: i32,
  idx: usize,
  ids: usize,
  n: i32,
  out: usize,
  mode: i32,
): void {
  const sh = alignof<T>();
  const rowBytes = (<usize>inner) << sh;
  const lanes = 16 / <i32>sizeof<T>();
  const nv = inner - (inner % lanes);
  let start = 0;
  for (let i = 0; i < n; i++) {
    const id = load<i32>(ids + ((<usize>i) << 2));
    const o = out + <usize>id * rowBytes;
    const s = data + <usize>load<i32>(idx + ((<usize>i) << 2)) * rowBytes;
    let j = 0;
    for (; j < nv; j += lanes) {
      const off = (<usize>j) << sh;
      v128.store(o + off, vaddT<T>(v128.load(o + off), v128.load(s + off)));
    }
    for (; j < inner; j++) {
      const off = (<usize>j) << sh;
      store<T>(o + off, load<T>(o + off) + load<T>(s + off));
    }
    if (mode != 0 && (i == n - 1 || load<i32>(ids + ((<usize>(i + 1)) << 2)) != id)) {
      const count = i - start + 1;
      start = i + 1;
      if (count > 1) scaleRow<T>(o, inner, count, mode);
    }
  }
}

export function segment_reduce_float32(
  data: usize,
  inner: i32,
  idx: usize,
  ids: usize,
  n: i32,
  out: usize,
  mode: i32,
): void {
  segmentReduce<f32>(data, inner, idx, ids, n, out, mode);
}
export function segment_reduce_float64(
  data: usize,
  inner: i32,
  idx: usize,
  ids: usize,
  n: i32,
  out: usize,
  mode: i32,
): void {
  segmentReduce<f64>(data, inner, idx, ids, n, out, mode);
}
export function segment_reduce_int32(
  data: usize,
  inner: i32,
  idx: usize,
  ids: usize,
  n: i32,
  out: usize,
  mode: i32,
): void {
  segmentReduce<i32>(data, inner, idx, ids, n, out, mode);
}
export function segment_reduce_int64(
  data: usize,
  inner: i32,
  idx: usize,
  ids: usize,
  n: i32,
  out: usize,
  mode: i32,
): void {
  segmentReduce<i64>(data, inner, idx, ids, n, out, mode);
}
