// Sparse × dense matrix product, templated over the value type; exported per dtype from index.ts.

/**
 * out[m×n] += A × B: A given as `nnz` entries in any order — an i32 [nnz × 2] index matrix (row, col), read
 * swapped when `swap` (Aᵀ) — with their values; B dense [k×n] row-major. Each entry adds v × (its row of B) into
 * its row of out, SIMD across the row; two entries of the same output row go in one pass, halving the traffic on out.
 */
@inline export function spmm<T>(indices: usize, swap: bool, vals: usize, nnz: i32, b: usize, n: i32, out: usize): void {
  const size = <usize>sizeof<T>();
  const rowBytes = <usize>n * size;
  const ri: usize = swap ? 4 : 0;
  const ci: usize = swap ? 0 : 4;
  let p = 0;
  while (p < nnz) {
    const e = indices + (<usize>p << 3);
    const r = <usize>load<i32>(e + ri);
    const o = out + r * rowBytes;
    const b1 = b + <usize>load<i32>(e + ci) * rowBytes;
    const v1 = load<T>(vals + <usize>p * size);
    if (p + 1 < nnz && <usize>load<i32>(e + 8 + ri) == r) {
      const b2 = b + <usize>load<i32>(e + 8 + ci) * rowBytes;
      const v2 = load<T>(vals + <usize>(p + 1) * size);
      axpy2<T>(o, b1, v1, b2, v2, n);
      p += 2;
    } else {
      axpy<T>(o, b1, v1, n);
      p += 1;
    }
  }
}

/** o[0..n) += v × b[0..n): one entry alone in its output row (no zero multiplier, which would turn inf into NaN). */
@inline function axpy<T>(o: usize, b: usize, v: T, n: i32): void {
  const size = <usize>sizeof<T>();
  const lanes = 16 / <i32>sizeof<T>();
  const nv = n - (n % lanes);
  let j = 0;
  for (; j < nv; j += lanes) {
    const off = <usize>j * size;
    v128.store(o + off, vadd<T>(v128.load(o + off), vmul<T>(vsplat<T>(v), v128.load(b + off))));
  }
  for (; j < n; j++) {
    const off = <usize>j * size;
    store<T>(o + off, load<T>(o + off) + v * load<T>(b + off));
  }
}

// v128 lanes of T: the SIMD instruction for each value type.
@inline function vsplat<T>(v: T): v128 {
  if (isFloat<T>()) return sizeof<T>() == 4 ? f32x4.splat(<f32>v) : f64x2.splat(<f64>v);
  return sizeof<T>() == 4 ? i32x4.splat(<i32>v) : i64x2.splat(<i64>v);
}
@inline function vadd<T>(a: v128, b: v128): v128 {
  if (isFloat<T>()) return sizeof<T>() == 4 ? f32x4.add(a, b) : f64x2.add(a, b);
  return sizeof<T>() == 4 ? i32x4.add(a, b) : i64x2.add(a, b);
}
@inline function vmul<T>(a: v128, b: v128): v128 {
  if (isFloat<T>()) return sizeof<T>() == 4 ? f32x4.mul(a, b) : f64x2.mul(a, b);
  return sizeof<T>() == 4 ? i32x4.mul(a, b) : i64x2.mul(a, b);
}

/** o[0..n) += v1 × b1[0..n) + v2 × b2[0..n), in v128 lanes of T, then a scalar tail. */
@inline function axpy2<T>(o: usize, b1: usize, v1: T, b2: usize, v2: T, n: i32): void {
  const size = <usize>sizeof<T>();
  const lanes = 16 / <i32>sizeof<T>();
  const nv = n - (n % lanes);
  const x = vsplat<T>(v1);
  const y = vsplat<T>(v2);
  let j = 0;
  for (; j < nv; j += lanes) {
    const off = <usize>j * size;
    v128.store(o + off, vadd<T>(v128.load(o + off), vadd<T>(vmul<T>(x, v128.load(b1 + off)), vmul<T>(y, v128.load(b2 + off)))));
  }
  for (; j < n; j++) {
    const off = <usize>j * size;
    store<T>(o + off, load<T>(o + off) + v1 * load<T>(b1 + off) + v2 * load<T>(b2 + off));
  }
}

/** dst[cols×rows] = transpose of src[rows×cols], row-major, in tiles so both sides stay in cache. */
@inline export function transpose<T>(src: usize, rows: i32, cols: i32, dst: usize): void {
  const size = <usize>sizeof<T>();
  const TILE = 32;
  for (let i0 = 0; i0 < rows; i0 += TILE) {
    const i1 = min(i0 + TILE, rows);
    for (let j0 = 0; j0 < cols; j0 += TILE) {
      const j1 = min(j0 + TILE, cols);
      for (let i = i0; i < i1; i++) {
        for (let j = j0; j < j1; j++) {
          store<T>(dst + (<usize>j * <usize>rows + <usize>i) * size, load<T>(src + (<usize>i * <usize>cols + <usize>j) * size));
        }
      }
    }
  }
}
