// Index rows: i32 [n × rank], row-major.

/** Element i of an i32 array. */
@inline export function getI32(p: usize, i: i32): i32 {
  return load<i32>(p + ((<usize>i) << 2));
}
@inline export function setI32(p: usize, i: i32, v: i32): void {
  store<i32>(p + ((<usize>i) << 2), v);
}

/** Where row i of i32 rows of `rank` columns starts. */
@inline export function rowAt(p: usize, i: i32, rank: i32): usize {
  return p + ((<usize>i * <usize>rank) << 2);
}

/** Value i of src to place k of dst: T is u32 or u64, the element size (values are only moved). */
@inline export function moveValue<T>(dst: usize, k: i32, src: usize, i: i32): void {
  store<T>(dst + <usize>k * sizeof<T>(), load<T>(src + <usize>i * sizeof<T>()));
}

/** An id (int32 or int64, checked by the runtime to lie in [0, vocab) with vocab < 2^31) as an i32. */
@inline export function idAt<I>(ids: usize, i: i32): i32 {
  return <i32>load<I>(ids + <usize>i * sizeof<I>());
}

/** -1, 0 or 1: row i of a against row j of b in row-major order. */
@inline export function compareRows(a: usize, i: i32, b: usize, j: i32, rank: i32): i32 {
  const pa = a + ((<usize>i * <usize>rank) << 2);
  const pb = b + ((<usize>j * <usize>rank) << 2);
  for (let d = 0; d < rank; d++) {
    const x = load<i32>(pa + ((<usize>d) << 2));
    const y = load<i32>(pb + ((<usize>d) << 2));
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

@inline export function copyRow(dst: usize, k: i32, src: usize, i: i32, rank: i32): void {
  memory.copy(dst + ((<usize>k * <usize>rank) << 2), src + ((<usize>i * <usize>rank) << 2), (<usize>rank) << 2);
}

/** The flat offset of row i read through `strides` (i32 per dim; 0 for a broadcast dim). */
@inline export function offsetOf(idx: usize, i: i32, rank: i32, strides: usize): usize {
  const row = idx + ((<usize>i * <usize>rank) << 2);
  let off: usize = 0;
  for (let d = 0; d < rank; d++)
    off += <usize>load<i32>(row + ((<usize>d) << 2)) * <usize>load<i32>(strides + ((<usize>d) << 2));
  return off;
}

/**
 * Each entry's flat offset in a dense tensor (`strides`: i32 per dim, 0 on a dim that does not count, as a
 * reduction's reduced dims): the output position of a scatter or a reduction.
 */
export function flat_offsets(idx: usize, rank: i32, nnz: i32, strides: usize, out: usize): void {
  for (let i = 0; i < nnz; i++) store<i32>(out + ((<usize>i) << 2), <i32>offsetOf(idx, i, rank, strides));
}

/**
 * n whole numbers in f64 (index entries) as i32 at dst, four at a time; values beyond i32 saturate (only columns
 * a kernel never reads have them). dst may be src (in place, from the front: each write lands at or before its
 * read). Faster than the JS engine's Int32Array.set of a Float64Array.
 */
export function indices_to_i32(src: usize, n: i32, dst: usize): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const a = i32x4.trunc_sat_f64x2_s_zero(v128.load(src + ((<usize>i) << 3)));
    const b = i32x4.trunc_sat_f64x2_s_zero(v128.load(src + ((<usize>i) << 3) + 16));
    v128.store(dst + ((<usize>i) << 2), v128.shuffle<i64>(a, b, 0, 2));
  }
  for (; i < n; i++) store<i32>(dst + ((<usize>i) << 2), <i32>load<f64>(src + ((<usize>i) << 3)));
}

/** In place: n i64 whole numbers (ids, each fits i32) narrowed to i32, from the front. */
export function narrow_i64(p: usize, n: i32): void {
  for (let i = 0; i < n; i++) store<i32>(p + ((<usize>i) << 2), <i32>load<i64>(p + ((<usize>i) << 3)));
}
