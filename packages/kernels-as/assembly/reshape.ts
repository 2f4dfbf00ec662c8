import { rowAt } from './rows';

/**
 * Each row's row-major position in the old shape (`inStrides`, K [inRank]) written as an index of the new shape
 * (`outDims`, i32 [outRank]). K is u32 when the dense size is at most 2^32, u64 when below 2^63: every partial
 * sum is at most the position, so the arithmetic is exact.
 */
@inline function reshape<K>(
  idx: usize,
  n: i32,
  inRank: i32,
  inStrides: usize,
  outRank: i32,
  outDims: usize,
  out: usize,
): void {
  const ks = <usize>sizeof<K>();
  for (let i = 0; i < n; i++) {
    const row = rowAt(idx, i, inRank);
    let pos: K = 0;
    for (let d = 0; d < inRank; d++) pos += <K>load<i32>(row + ((<usize>d) << 2)) * load<K>(inStrides + <usize>d * ks);
    const orow = rowAt(out, i, outRank);
    for (let d = outRank - 1; d > 0; d--) {
      const dim = <K>load<i32>(outDims + ((<usize>d) << 2));
      const q = pos / dim;
      store<i32>(orow + ((<usize>d) << 2), <i32>(pos - q * dim));
      pos = q;
    }
    if (outRank > 0) store<i32>(orow, <i32>pos);
  }
}

export function reshape_32(
  idx: usize,
  n: i32,
  inRank: i32,
  inStrides: usize,
  outRank: i32,
  outDims: usize,
  out: usize,
): void {
  reshape<u32>(idx, n, inRank, inStrides, outRank, outDims, out);
}
export function reshape_64(
  idx: usize,
  n: i32,
  inRank: i32,
  inStrides: usize,
  outRank: i32,
  outDims: usize,
  out: usize,
): void {
  reshape<u64>(idx, n, inRank, inStrides, outRank, outDims, out);
}
