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
  if (rank == 2) {
    // (row, col) as one u64 with the row in the high half: for non-negative i32s, their order.
    const x = rotr<u64>(load<u64>(a + ((<usize>i) << 3)), 32);
    const y = rotr<u64>(load<u64>(b + ((<usize>j) << 3)), 32);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const pa = a + ((<usize>i * <usize>rank) << 2);
  const pb = b + ((<usize>j * <usize>rank) << 2);
  for (let d = 0; d < rank; d++) {
    const x = load<i32>(pa + ((<usize>d) << 2));
    const y = load<i32>(pb + ((<usize>d) << 2));
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Row i of src to place k of dst (a loop of i32 moves: memory.copy is a call into the engine, slow for a row). */
@inline export function copyRow(dst: usize, k: i32, src: usize, i: i32, rank: i32): void {
  if (rank == 2) {
    store<u64>(dst + ((<usize>k) << 3), load<u64>(src + ((<usize>i) << 3)));
    return;
  }
  const d0 = dst + ((<usize>k * <usize>rank) << 2);
  const s0 = src + ((<usize>i * <usize>rank) << 2);
  for (let d = 0; d < rank; d++) store<i32>(d0 + ((<usize>d) << 2), load<i32>(s0 + ((<usize>d) << 2)));
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

/**
 * A matrix's CSR row pointers (m + 1 i32 at `rowPtr`: row r's entries are rowPtr[r] .. rowPtr[r + 1] when the rows
 * never decrease) from its i32 [n × 2] indices, by counting; returns bit 0 set when the rows never decrease, bit 1
 * when the entries are in row-major order (repeats allowed). Linear: O(n + m).
 */
export function csr_rows(idx: usize, n: i32, m: i32, rowPtr: usize): i32 {
  memory.fill(rowPtr, 0, (<usize>m + 1) << 2);
  let prev: u64 = 0;
  let rowsOrdered = true;
  let canonical = true;
  for (let p = 0; p < n; p++) {
    const rc = load<u64>(idx + ((<usize>p) << 3));
    // The row in the high half: as u64, the order of (row, col) pairs of non-negative i32s.
    const key = rotr<u64>(rc, 32);
    if (key < prev) {
      canonical = false;
      if (key >> 32 < prev >> 32) rowsOrdered = false;
    }
    prev = key;
    const c = rowPtr + ((<usize>(<u32>rc) + 1) << 2);
    store<i32>(c, load<i32>(c) + 1);
  }
  for (let r = 0; r < m; r++) {
    const c = rowPtr + ((<usize>r + 1) << 2);
    store<i32>(c, load<i32>(c) + load<i32>(c - 4));
  }
  return (rowsOrdered ? 1 : 0) | (canonical ? 2 : 0);
}
