import { groupBound, magnitude as M } from '@sparse/kernel-abi';

/** The magnitudes of a float32 sum of up to `longest` parts within `part`, in turn; undefined where a step may be subnormal. */
export function sumOfParts(part: M.Maybe, longest: number): M.Maybe {
  if (!part) return undefined;
  return groupBound<M.Maybe>(M, {
    init: () => M.lit(0),
    combine: (acc: M.Maybe, x: M.Maybe) => M.add(acc, x),
    finalize: (acc: M.Maybe) => acc,
    x: part,
    scalars: [],
    longest,
    includeZeros: false,
    count: M.span(1, Math.max(longest, 1)),
  });
}

/** The magnitudes of a float32 sum of up to `longest` products of values within `a` and `b` (a matmul's element). */
export function sumOfProducts(a: M.Maybe, b: M.Maybe, longest: number): M.Maybe {
  return sumOfParts(M.mul(a, b), longest);
}
