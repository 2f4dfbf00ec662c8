import { compareIndexRows } from '../compare-indices.js';

/** The union of two index lists: for output entry k, the row of `a` (`fromA[k]`) and of `b` (`fromB[k]`) it holds, -1 where absent. */
export interface MergePlan {
  n: number;
  fromA: Int32Array;
  fromB: Int32Array;
}

/**
 * Merges two index lists, each in canonical row-major order without repeats, into their union in canonical
 * order; an index both hold becomes one entry that names both rows. Linear in na + nb.
 */
export function mergeSortedUnion(
  a: ArrayLike<number>,
  na: number,
  b: ArrayLike<number>,
  nb: number,
  rank: number,
): MergePlan {
  const fromA = new Int32Array(na + nb);
  const fromB = new Int32Array(na + nb);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < na || j < nb) {
    const c = i === na ? 1 : j === nb ? -1 : compareIndexRows(a, i, b, j, rank);
    fromA[k] = c <= 0 ? i++ : -1;
    fromB[k] = c >= 0 ? j++ : -1;
    k++;
  }
  return { n: k, fromA, fromB };
}
