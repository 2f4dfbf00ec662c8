/** The number of elements of a dense shape (a float: exact below 2^53, never a wrong small number). */
export function sizeOf(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/** The exact number of elements of a dense shape, past 2^53 too. */
export function exactSizeOf(shape: readonly number[]): bigint {
  let n = 1n;
  for (const d of shape) n *= BigInt(d);
  return n;
}

/** Exact row-major strides, for dense shapes of 2^53 elements or more. */
export function exactRowMajorStrides(shape: readonly number[]): bigint[] {
  const strides = new Array<bigint>(shape.length);
  let s = 1n;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = s;
    s *= BigInt(shape[d]);
  }
  return strides;
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
