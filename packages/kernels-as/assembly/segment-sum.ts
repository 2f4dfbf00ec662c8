// sparse_segment_sum: out[ids[i]] += data[idx[i]], rows of `inner` elements (out zeroed by the caller), in the
// dtype: float32 rounds each sum, integers wrap. The lanes add exactly as the scalar loop would.

@inline function vaddT<T>(a: v128, b: v128): v128 {
  if (isFloat<T>()) return sizeof<T>() == 4 ? f32x4.add(a, b) : f64x2.add(a, b);
  return sizeof<T>() == 4 ? i32x4.add(a, b) : i64x2.add(a, b);
}

@inline function segmentSum<T>(data: usize, inner: i32, idx: usize, ids: usize, n: i32, out: usize): void {
  const sh = alignof<T>();
  const rowBytes = (<usize>inner) << sh;
  const lanes = 16 / <i32>sizeof<T>();
  const nv = inner - (inner % lanes);
  for (let i = 0; i < n; i++) {
    const o = out + <usize>load<i32>(ids + ((<usize>i) << 2)) * rowBytes;
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
  }
}

export function segment_sum_float32(data: usize, inner: i32, idx: usize, ids: usize, n: i32, out: usize): void {
  segmentSum<f32>(data, inner, idx, ids, n, out);
}
export function segment_sum_float64(data: usize, inner: i32, idx: usize, ids: usize, n: i32, out: usize): void {
  segmentSum<f64>(data, inner, idx, ids, n, out);
}
export function segment_sum_int32(data: usize, inner: i32, idx: usize, ids: usize, n: i32, out: usize): void {
  segmentSum<i32>(data, inner, idx, ids, n, out);
}
export function segment_sum_int64(data: usize, inner: i32, idx: usize, ids: usize, n: i32, out: usize): void {
  segmentSum<i64>(data, inner, idx, ids, n, out);
}
