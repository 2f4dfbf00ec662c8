import { fdlibmExp, fdlibmExp2 } from './fdlibm-exp';

// sparse_softmax: per innermost row (a run of entries agreeing on every dim but the last; the input is in
// canonical order), exp(x - max) × (1 / Σ exp), in the dtype. float32 rounds every step to f32 as the JS kernel
// does; its exp is taken in f64 and rounded, as the JS kernel's fround(Math.exp(x)). exp is V8's (fdlibm's)
// algorithm, so both dtypes give the JS kernel's values to the bit.

@inline function sameRow(idx: usize, i: i32, j: i32, rank: i32): bool {
  if (rank == 2) return load<i32>(idx + ((<usize>i) << 3)) == load<i32>(idx + ((<usize>j) << 3));
  const a = idx + ((<usize>i * <usize>rank) << 2);
  const b = idx + ((<usize>j * <usize>rank) << 2);
  for (let d = 0; d < rank - 1; d++)
    if (load<i32>(a + ((<usize>d) << 2)) != load<i32>(b + ((<usize>d) << 2))) return false;
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
    let m = load<T>(src + ((<usize>start) << sh));
    for (let i = start + 1; i < end; i++) m = max<T>(m, load<T>(src + ((<usize>i) << sh)));
    // exp(x - max), two at a time (the lanes compute what the scalar code does, bit for bit).
    let i = start;
    if (sizeof<T>() == 8) {
      const mv = f64x2.splat(<f64>m);
      for (; i + 2 <= end; i += 2) {
        const off = (<usize>i) << 3;
        v128.store(out + off, fdlibmExp2(f64x2.sub(v128.load(src + off), mv)));
      }
    } else {
      const mv = f32x4.splat(<f32>m);
      for (; i + 2 <= end; i += 2) {
        const off = (<usize>i) << 2;
        const d = f32x4.sub(v128.load64_zero(src + off), mv);
        v128.store64_lane(out + off, f32x4.demote_f64x2_zero(fdlibmExp2(f64x2.promote_low_f32x4(d))), 0);
      }
    }
    for (; i < end; i++) store<T>(out + ((<usize>i) << sh), expT<T>(load<T>(src + ((<usize>i) << sh)) - m));
    // The sum in entry order, in the dtype.
    let sum: T = 0;
    for (let j = start; j < end; j++) sum += load<T>(out + ((<usize>j) << sh));
    const inv: T = <T>1 / sum;
    for (let j = start; j < end; j++) store<T>(out + ((<usize>j) << sh), load<T>(out + ((<usize>j) << sh)) * inv);
    start = end;
  }
}

export function softmax_float32(idx: usize, n: i32, rank: i32, src: usize, out: usize): void {
  softmax<f32>(idx, n, rank, src, out);
}
export function softmax_float64(idx: usize, n: i32, rank: i32, src: usize, out: usize): void {
  softmax<f64>(idx, n, rank, src, out);
}
