/**
 * Cuts [0, n) into at most `parts` ranges of about equal cost, where `costBefore(i)` is the cost of [0, i)
 * (non-decreasing in i, 0 at 0): the bounds, from 0 to n, each found by a binary search. Ranges that would be
 * empty are dropped, so fewer may come back.
 */
export function balancedCuts(n: number, parts: number, costBefore: (i: number) => number): number[] {
  const total = costBefore(n);
  const cuts = [0];
  for (let k = 1; k < parts; k++) {
    const target = (total * k) / parts;
    let lo = cuts[cuts.length - 1];
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (costBefore(mid) < target) lo = mid + 1;
      else hi = mid;
    }
    if (lo > cuts[cuts.length - 1] && lo < n) cuts.push(lo);
  }
  cuts.push(n);
  return cuts;
}

/** Below this much work (entries, or multiply-adds) a call runs on one thread: handing parts over costs more. */
export const PARALLEL_MIN_WORK = 2 ** 16;
