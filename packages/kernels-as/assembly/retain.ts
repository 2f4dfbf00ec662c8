import { moveValue } from './rows';

/**
 * The rows whose flag (u8 [n]) is non-zero, with their values, in input order. Returns how many. The rows are only
 * moved, so they stay the f64 [n × rank] the JS side speaks (8-byte moves, any dim).
 */
@inline function retain<T>(
  idx: usize,
  n: i32,
  rank: i32,
  mask: usize,
  vals: usize,
  outIdx: usize,
  outVals: usize,
): i32 {
  const rowBytes = (<usize>rank) << 3;
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (load<u8>(mask + <usize>i) == 0) continue;
    const src = idx + <usize>i * rowBytes;
    const dst = outIdx + <usize>m * rowBytes;
    for (let d: usize = 0; d < rowBytes; d += 8) store<u64>(dst + d, load<u64>(src + d));
    moveValue<T>(outVals, m, vals, i);
    m++;
  }
  return m;
}

export function retain_4(idx: usize, n: i32, rank: i32, mask: usize, vals: usize, outIdx: usize, outVals: usize): i32 {
  return retain<u32>(idx, n, rank, mask, vals, outIdx, outVals);
}
export function retain_8(idx: usize, n: i32, rank: i32, mask: usize, vals: usize, outIdx: usize, outVals: usize): i32 {
  return retain<u64>(idx, n, rank, mask, vals, outIdx, outVals);
}
