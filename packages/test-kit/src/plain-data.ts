import { allocValues, type DenseData, type DType, type Scalar, type SparseData, type Values } from '@sparse/kernel-abi';

/** One element as a test writes it: a number, a bigint (int64), a boolean (bool) or a string. */
export type Plain = number | bigint | boolean | string;

/**
 * A value store of the dtype holding `items` as the runtime stores them: float32 rounded, bool as 0/1, int64 as
 * bigint. A typed array already of the dtype's storage class is kept as it is (no copy of a large input).
 */
export function store(dtype: DType, items: ArrayLike<Plain> | Values): Values {
  if (items.constructor === allocValues(dtype, 0).constructor && !Array.isArray(items)) return items as Values;
  const out = allocValues(dtype, items.length);
  const cells = out as unknown as Plain[];
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    cells[i] = dtype === 'bool' ? (x ? 1 : 0) : dtype === 'int64' ? BigInt(x as number | bigint) : x;
  }
  return out;
}

/** SparseData from index rows (or a flat row-major index array) and values. */
export function sparse(
  indices: readonly (readonly number[])[] | Float64Array,
  values: ArrayLike<Plain> | Values,
  shape: number[],
  dtype: DType,
): SparseData {
  const flat = indices instanceof Float64Array ? indices : Float64Array.from(indices.flat());
  return { kind: 'sparse', indices: flat, values: store(dtype, values), shape, dtype };
}

/** DenseData, row-major. */
export function dense(data: ArrayLike<Plain> | Values, shape: number[], dtype: DType): DenseData {
  return { kind: 'dense', data: store(dtype, data), shape, dtype };
}

/** A scalar argument as the runtime hands it to a kernel: as the dtype holds it (float32 rounded, int64 a bigint). */
export function scalar(dtype: DType, v: Plain): Scalar {
  const held = store(dtype, [v])[0];
  return dtype === 'bool' ? held === 1 : held;
}

/**
 * The row-major indices of `rows` entries of a 300 × 200 matrix (with repeats and out of order): enough rows that
 * the runtime's index check runs in wasm, all in bounds.
 */
export function matrixIndices(rows: number): Float64Array {
  const idx = new Float64Array(2 * rows);
  for (let i = 0; i < rows; i++) {
    idx[2 * i] = i % 300;
    idx[2 * i + 1] = (i * 7) % 200;
  }
  return idx;
}
