/**
 * Every row with a 0 inserted at column `at` (0 <= at <= rank). Indices are only moved here, never computed on, so
 * the rows stay the f64 the JS side speaks (8-byte moves, any dim): no conversion either way.
 */
export function expand_dims(idx: usize, n: i32, rank: i32, at: i32, out: usize): void {
  const outRank = rank + 1;
  for (let i = 0; i < n; i++) {
    const src = idx + ((<usize>i * <usize>rank) << 3);
    const dst = out + ((<usize>i * <usize>outRank) << 3);
    for (let d = 0; d < at; d++) store<u64>(dst + ((<usize>d) << 3), load<u64>(src + ((<usize>d) << 3)));
    store<u64>(dst + ((<usize>at) << 3), 0);
    for (let d = at; d < rank; d++) store<u64>(dst + ((<usize>(d + 1)) << 3), load<u64>(src + ((<usize>d) << 3)));
  }
}
