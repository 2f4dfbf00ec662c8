// The runtime's index check (every index a whole number in [0, dim)), as a fast predicate over f64 indices.

/**
 * Whether all `count` f64 index numbers at `ptr`, row-major [count / rank × rank], are whole numbers with
 * 0 <= x < dims[d] (`dims` f64 [rank], each below 2^31). NaN fails every comparison, so it is caught as out of
 * range. As it goes it narrows them to i32 in place (each write lands at or before its read), so when they pass
 * they are ready for the kernels as i32 [count]; when they fail, what is at `ptr` is garbage.
 *
 * Rank 1 and 2 go four numbers per step against a (dim, dim) or (rows, cols) vector. The narrowing adds 2^52, which
 * puts a whole number in [0, 2^31) in the low 32 bits of the f64, and keeps those bits: cheaper than a saturating
 * conversion, and exact for every number that passes. Other ranks go one by one.
 */
export function indices_valid(ptr: usize, count: i32, rank: i32, dims: usize): bool {
  let i = 0;
  if (rank == 1 || rank == 2) {
    const hi = rank == 1 ? f64x2.splat(load<f64>(dims)) : v128.load(dims);
    const zero = f64x2.splat(0);
    const magic = f64x2.splat(4503599627370496); // 2^52
    let ok = i64x2.splat(-1);
    for (; i + 4 <= count; i += 4) {
      const a = v128.load(ptr + ((<usize>i) << 3));
      const b = v128.load(ptr + ((<usize>i) << 3), 16);
      const okA = v128.and(f64x2.eq(f64x2.floor(a), a), v128.and(f64x2.ge(a, zero), f64x2.lt(a, hi)));
      const okB = v128.and(f64x2.eq(f64x2.floor(b), b), v128.and(f64x2.ge(b, zero), f64x2.lt(b, hi)));
      ok = v128.and(ok, v128.and(okA, okB));
      const t = i8x16.shuffle(
        f64x2.add(a, magic),
        f64x2.add(b, magic),
        0,
        1,
        2,
        3,
        8,
        9,
        10,
        11,
        16,
        17,
        18,
        19,
        24,
        25,
        26,
        27,
      );
      v128.store(ptr + ((<usize>i) << 2), t);
    }
    if (!i64x2.all_true(ok)) return false;
  }
  for (; i < count; i++) {
    const x = load<f64>(ptr + ((<usize>i) << 3));
    const dim = load<f64>(dims + ((<usize>(i % rank)) << 3));
    if (!(Math.floor(x) == x && x >= 0 && x < dim)) return false;
    store<i32>(ptr + ((<usize>i) << 2), <i32>x);
  }
  return true;
}
