/**
 * An [n × rank] index matrix (float64 or int64 storage) as u32 words, each index checked against its dim of
 * `shape` (an integer in [0, dim)): the indices the runtime checks before a kernel; undefined where one is not, so
 * that a direct call runs on the JS kernels. O(n · rank).
 */
export function indexWords(
  raw: ArrayLike<number | bigint>,
  n: number,
  shape: readonly number[],
): Uint32Array | undefined {
  const rank = shape.length;
  if (raw.length !== n * rank) return undefined;
  const out = new Uint32Array(n * rank);
  for (let e = 0; e < n; e++)
    for (let d = 0; d < rank; d++) {
      const x = Number(raw[e * rank + d]);
      if (!(x >= 0 && x < shape[d]) || x !== Math.floor(x)) return undefined;
      out[e * rank + d] = x;
    }
  return out;
}
