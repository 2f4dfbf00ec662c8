/** The exact number of elements of a dense shape. */
export function bigSize(shape: readonly number[]): bigint {
  let n = 1n;
  for (const d of shape) n *= BigInt(d);
  return n;
}

/** Exact row-major strides. */
export function bigStrides(shape: readonly number[]): bigint[] {
  const out = new Array<bigint>(shape.length);
  let s = 1n;
  for (let d = shape.length - 1; d >= 0; d--) {
    out[d] = s;
    s *= BigInt(shape[d]);
  }
  return out;
}
