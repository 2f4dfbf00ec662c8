import type { SparseData, Values } from '../generated/kernel-types.js';
import { copyRow } from './index-rows.js';
import { mergeSortedUnion, type MergePlan } from './merge-sorted.js';

/**
 * The entries of a merge of two canonically ordered operands of one shape: their union, or (intersection) only
 * the indices both hold. Entry k takes row fromA[k] of a and fromB[k] of b, -1 where absent. Linear.
 */
export function mergePlan(a: SparseData, b: SparseData, join: 'union' | 'intersection'): MergePlan {
  const rank = a.shape.length;
  const union = mergeSortedUnion(a.indices, a.values.length, b.indices, b.values.length, rank);
  if (join === 'union') return union;
  let m = 0;
  for (let k = 0; k < union.n; k++) {
    if (union.fromA[k] >= 0 && union.fromB[k] >= 0) {
      union.fromA[m] = union.fromA[k];
      union.fromB[m] = union.fromB[k];
      m++;
    }
  }
  return { n: m, fromA: union.fromA.subarray(0, m), fromB: union.fromB.subarray(0, m) };
}

/** The merged SparseTensor: entries kept[0..m) of the plan, their values already in values[0..m). */
export function takeMerged(
  plan: MergePlan,
  values: Values,
  kept: Uint32Array,
  m: number,
  a: SparseData,
  b: SparseData,
): SparseData {
  const rank = a.shape.length;
  const indices = new Float64Array(m * rank);
  for (let t = 0; t < m; t++) {
    const k = kept[t];
    const i = plan.fromA[k];
    if (i >= 0) copyRow(indices, t, a.indices, i, rank);
    else copyRow(indices, t, b.indices, plan.fromB[k], rank);
  }
  return { kind: 'sparse', indices, values: values.slice(0, m) as Values, shape: a.shape.slice(), dtype: a.dtype };
}
