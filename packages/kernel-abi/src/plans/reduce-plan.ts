import type { SparseData } from '../generated/kernel-types.js';
import { reducedAxes } from '../axes.js';
import { rowMajorStrides, sizeOf } from '../strides.js';

/** How the stored entries of a tensor fall into the groups of a reduction. */
export interface ReducePlan {
  /** The group of each stored entry. */
  group: Float64Array;
  /** How many groups: every output position (dense output), or the groups that hold an entry (sparse output). */
  groups: number;
  /** The stored entries of each group. */
  count: Float64Array;
  /** The dense positions in one group: a group whose count is below it holds implicit zeros. */
  groupSize: number;
  /** The output's dense shape. */
  shape: number[];
  /** Sparse output: the index of each group, in canonical order. */
  indices?: Float64Array;
}

/**
 * Groups the entries of `sp` by their index along the dims that `axes` does not reduce (null: reduce all;
 * negative axes count from the end; the runtime has checked the range). Dense output: a group per output
 * position. Sparse output: a group per distinct kept index, in canonical order: O(n log n), comparing index
 * tuples where the kept dims hold 2^53 positions or more, so no key overflows.
 */
export function reducePlan(
  sp: SparseData,
  axes: number[] | null,
  keepdims: boolean,
  output: 'dense' | 'sparse',
): ReducePlan {
  const rank = sp.shape.length;
  const n = sp.values.length;
  const reduced = reducedAxes(axes, rank);
  const kept = sp.shape.map((_, d) => d).filter((d) => !reduced.has(d));
  const keptShape = kept.map((d) => sp.shape[d]);
  const shape = keepdims ? sp.shape.map((dim, d) => (reduced.has(d) ? 1 : dim)) : keptShape;
  const groupSize = sizeOf([...reduced].map((d) => sp.shape[d]));
  const keptIndex = (i: number, k: number) => sp.indices[i * rank + kept[k]];

  if (output === 'dense' || sizeOf(keptShape) <= Number.MAX_SAFE_INTEGER) {
    const strides = rowMajorStrides(keptShape);
    const key = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < kept.length; k++) key[i] += keptIndex(i, k) * strides[k];
    }
    if (output === 'dense') {
      const groups = sizeOf(keptShape);
      return { group: key, groups, count: countPerGroup(key, groups), groupSize, shape };
    }
    return compact((x, y) => key[x] - key[y]);
  }
  return compact((x, y) => {
    for (let k = 0; k < kept.length; k++) {
      const c = keptIndex(x, k) - keptIndex(y, k);
      if (c !== 0) return c;
    }
    return 0;
  });

  // Sparse output: number the distinct groups in canonical order and give each its index.
  function compact(cmp: (x: number, y: number) => number): ReducePlan {
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort(cmp);
    const outRank = shape.length;
    const group = new Float64Array(n);
    const first: number[] = [];
    for (let t = 0; t < n; t++) {
      const i = order[t];
      if (t === 0 || cmp(order[t - 1], i) !== 0) first.push(i);
      group[i] = first.length - 1;
    }
    const groups = first.length;
    const indices = new Float64Array(groups * outRank);
    first.forEach((i, g) => {
      let k = 0;
      for (let d = 0; d < rank; d++) {
        if (!reduced.has(d)) indices[g * outRank + (keepdims ? d : k)] = sp.indices[i * rank + d];
        if (!reduced.has(d)) k++;
      }
    });
    return { group, groups, count: countPerGroup(group, groups), groupSize, shape, indices };
  }
}

function countPerGroup(group: Float64Array, groups: number): Float64Array {
  const count = new Float64Array(groups);
  for (let i = 0; i < group.length; i++) count[group[i]]++;
  return count;
}
