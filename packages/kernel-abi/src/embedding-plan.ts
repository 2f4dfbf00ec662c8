import type { DenseData, SparseData } from './generated/kernel-types.js';
import { sizeOf } from './strides.js';

// The plans of the embedding lookups, shared by every backend's kernels: which output row each stored id goes to.

export type Combiner = 'sum' | 'mean' | 'sqrtn';

/**
 * How the stored ids of an embedding lookup map to output rows, shared by both lookups and every backend: entry i
 * goes to row `sum(indices[i][k] * strides[k])` over the first `strides.length` coordinates, of `rows` rows of
 * `inner` elements each.
 */
export interface EmbeddingPlan {
  strides: number[];
  rows: number;
  inner: number;
  shape: number[];
}

/** embedding_lookup_sparse: rows by the first coordinate, up to the last row holding an id (TF's segment sums). */
export function lookupPlan(params: DenseData, sp: SparseData): EmbeddingPlan {
  const n = sp.values.length;
  const rows = n === 0 ? 0 : sp.indices[(n - 1) * sp.shape.length] + 1;
  const inner = sizeOf(params.shape.slice(1));
  return { strides: [1], rows, inner, shape: [rows, ...params.shape.slice(1)] };
}

/** safe_embedding_lookup_sparse: rows over every coordinate but the last, row-major; every row is output. */
export function safeLookupPlan(params: DenseData, sp: SparseData): EmbeddingPlan {
  const dims = sp.shape.slice(0, -1);
  const strides = dims.map((_, k) => sizeOf(dims.slice(k + 1)));
  const inner = sizeOf(params.shape.slice(1));
  return { strides, rows: sizeOf(dims), inner, shape: [...dims, ...params.shape.slice(1)] };
}
