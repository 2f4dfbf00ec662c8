// The runtime's index check (every index a whole number in [0, dim)), as a fast predicate over f64 indices.

/**
 * Whether all `count` f64 index numbers at `ptr`, row-major [count / rank × rank], are whole numbers with
 * 0 <= x < dims[d] (`dims` f64 [rank], each below 2^31). NaN fails every comparison, so it is caught as out of
 * range. Rank 1 and 2 test two numbers per SIMD step against a (dim, dim) or (rows, cols) vector; other ranks go
 * one by one. As it goes it narrows them to i32 in place (each write lands at or before its read), so when they
 * pass they are ready for the kernels as i32 [count]; when they fail, what is at `ptr` is garbage.
 */
export function indices_valid(ptr: usize, count: i32, rank: i32, dims: usize): bool {
  let i = 0;
  if (rank == 1 || rank == 2) {
    const hi = rank == 1 ? f64x2.splat(load<f64>(dims)) : v128.load(dims);
    const zero = f64x2.splat(0);
    let ok = i64x2.splat(-1);
    for (; i + 2 <= count; i += 2) {
      const x = v128.load(ptr + (<usize>i << 3));
      ok = v128.and(ok, v128.and(f64x2.eq(f64x2.floor(x), x), v128.and(f64x2.ge(x, zero), f64x2.lt(x, hi))));
      v128.store64_lane(ptr + (<usize>i << 2), i32x4.trunc_sat_f64x2_s_zero(x), 0);
    }
    if (!i64x2.all_true(ok)) return false;
  }
  for (; i < count; i++) {
    const x = load<f64>(ptr + (<usize>i << 3));
    const dim = load<f64>(dims + (<usize>(i % rank) << 3));
    if (!(Math.floor(x) == x && x >= 0 && x < dim)) return false;
    store<i32>(ptr + (<usize>i << 2), <i32>x);
  }
  return true;
}
