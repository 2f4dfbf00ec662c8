/** The number of elements of a dense shape (a float: exact below 2^53, never a wrong small number). */
export function sizeOf(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/** Row-major strides: the step in a flat buffer of one unit along each dim. Exact while sizeOf(shape) < 2^53. */
export function rowMajorStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let s = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = s;
    s *= shape[d];
  }
  return strides;
}

/** The flat offset of index row `i` of row-major `indices` (rank = strides.length). */
export function linearOffset(indices: ArrayLike<number>, i: number, strides: readonly number[]): number {
  const rank = strides.length;
  let off = 0;
  for (let d = 0, k = i * rank; d < rank; d++, k++) off += indices[k] * strides[d];
  return off;
}

/** The flat offset of every index row of a row-major [n × strides.length] index matrix. */
export function linearOffsets(indices: ArrayLike<number>, n: number, strides: readonly number[]): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = linearOffset(indices, i, strides);
  return out;
}
