import type { SparseData } from '../generated/kernel-types.js';
import { canonicalOrder } from './canonical-order.js';

/** What bincount counts, and where: the same plan on every backend. */
export interface BincountPlan {
  /** The entries counted (those below maxlength, where given), by position in `values`. */
  counted: number[];
  /** The output's dense shape: [size], or [rows, size] by row. */
  shape: number[];
  /** Each counted entry's key, [row, value] or [value], row-major (counted.length × shape.length). */
  keys: Float64Array;
  /** The counted entries in canonical order of their keys (a stable sort): each run of one key is one output entry. */
  order: Uint32Array;
}

/**
 * The counted entries of sparse_bincount (axis -1 over a rank-2 input counts per batch row), keyed by [row, value]
 * or [value], put in canonical order by one stable sort; the size is maxlength where given, else the largest counted
 * value + 1 (TensorFlow's kernel starts it at 0), at least minlength. O(n log n) in the stored values.
 */
export function bincountPlan(
  values: SparseData,
  axis: number,
  minlength: number | null | undefined,
  maxlength: number | null | undefined,
): BincountPlan {
  const vals = values.values as Int32Array | BigInt64Array;
  const byRow = axis === -1 && values.shape.length === 2;
  const cap = maxlength ?? -1;
  const counted: number[] = [];
  let largest = 0;
  for (let i = 0; i < vals.length; i++) {
    const v = Number(vals[i]);
    if (cap >= 0 && v >= cap) continue;
    counted.push(i);
    if (v > largest) largest = v;
  }
  const size = cap >= 0 ? cap : Math.max(largest + 1, minlength ?? -1);
  const shape = byRow ? [values.shape[0], size] : [size];
  const rank = shape.length;
  const m = counted.length;
  const keys = new Float64Array(m * rank);
  const inRank = values.shape.length;
  for (let j = 0; j < m; j++) {
    const i = counted[j];
    if (byRow) keys[j * 2] = values.indices[i * inRank];
    keys[j * rank + rank - 1] = Number(vals[i]);
  }
  return { counted, shape, keys, order: canonicalOrder(keys, m, shape) };
}

/** Whether two counted entries (positions in the plan) have one key. */
export function sameKey(keys: Float64Array, a: number, b: number, rank: number): boolean {
  for (let d = 0; d < rank; d++) if (keys[a * rank + d] !== keys[b * rank + d]) return false;
  return true;
}
