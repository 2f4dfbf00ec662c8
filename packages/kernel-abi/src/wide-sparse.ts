import type { DType, SparseData, Values } from './generated/kernel-types.js';

/**
 * A sparse tensor with a dim past 2^53 - 1, where a JS number stops being exact (TensorFlow's int64 dims reach
 * 2^63 - 1): its dims and indices held exactly, as BigInt. Kernels take SparseData; the runtime runs a call with
 * such a tensor either through an order-preserving stand-in of its indices, for the ops that only compare them,
 * or through an exact kernel (`WIDE_KERNELS` of @sparse/kernels-js).
 */
export interface WideSparseData {
  readonly kind: 'wide_sparse';
  indices: BigInt64Array;
  values: Values;
  shape: bigint[];
  dtype: DType;
}

export function isWideSparse(x: unknown): x is WideSparseData {
  return (x as { kind?: unknown } | null)?.kind === 'wide_sparse';
}

/** The exact form of either kind of sparse data (shares the values; copies the indices of SparseData). */
export function toWideSparse(x: SparseData | WideSparseData): WideSparseData {
  if (x.kind === 'wide_sparse') return x;
  const indices = new BigInt64Array(x.indices.length);
  for (let k = 0; k < indices.length; k++) indices[k] = BigInt(x.indices[k]);
  return { kind: 'wide_sparse', indices, values: x.values, shape: x.shape.map(BigInt), dtype: x.dtype };
}

/** Wide data as SparseData when every dim is at most 2^53 - 1 (then every index is exact as a number too). */
export function fitSparse(x: WideSparseData): SparseData | WideSparseData {
  if (x.shape.some((d) => d > BigInt(Number.MAX_SAFE_INTEGER))) return x;
  return {
    kind: 'sparse',
    indices: Float64Array.from(x.indices, Number),
    values: x.values,
    shape: x.shape.map(Number),
    dtype: x.dtype,
  };
}
