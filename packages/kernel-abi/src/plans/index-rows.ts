/** Copies index row `i` of `src` into row `k` of `dst` (both row-major with `rank` columns). */
export function copyRow(dst: Float64Array, k: number, src: ArrayLike<number>, i: number, rank: number): void {
  for (let d = 0, p = k * rank, q = i * rank; d < rank; d++, p++, q++) dst[p] = src[q];
}

/** The rows of a row-major [n × rank] index matrix taken in `order`. */
export function takeRows(indices: ArrayLike<number>, rank: number, order: ArrayLike<number>): Float64Array {
  const out = new Float64Array(order.length * rank);
  for (let k = 0; k < order.length; k++) copyRow(out, k, indices, order[k], rank);
  return out;
}
