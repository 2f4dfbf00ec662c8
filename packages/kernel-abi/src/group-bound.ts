/**
 * A bound over a domain of sets of values (int32 ranges, float32 magnitudes): how two sets join, whether one holds
 * another, and the set of one number. undefined is the domain's refusal (a step may leave what the GPU computes as
 * the JS kernels do).
 */
export interface BoundDomain<T> {
  join(a: T | undefined, b: T | undefined): T | undefined;
  covers(a: T, b: T): boolean;
  lit(v: number): T | undefined;
}

type BoundFn<T> = (...sets: (T | undefined)[]) => T | undefined;

/** A reduction's expressions over a domain, and the groups it runs over. */
export interface GroupReduction<T> {
  init: BoundFn<T>;
  combine: BoundFn<T>;
  finalize: BoundFn<T>;
  /** The values' set; the scalars' sets, passed after the variables. */
  x: T | undefined;
  scalars: (T | undefined)[];
  /** The most entries of any one group; whether implicit zeros take part; the set of a group's count (1..longest). */
  longest: number;
  includeZeros: boolean;
  count: T | undefined;
}

/**
 * The set of every group's result. acc after a group's first entry, then that set widened by one more combine at a
 * time, until it stops growing or the longest group is done: each step is inclusion-monotone, so a set holding every
 * acc after k entries, combined once more, holds every acc after k + 1. At most one step per entry of the longest
 * group (linear), usually a few.
 */
export function groupBound<T>(d: BoundDomain<T>, r: GroupReduction<T>): T | undefined {
  const s = r.scalars;
  if (r.longest === 0) return d.lit(0);
  // An implicit zero takes part once, after a group's entries (the kernel's template).
  const xs = r.includeZeros ? d.join(r.x, d.lit(0)) : r.x;
  const steps = r.longest + (r.includeZeros ? 1 : 0);
  let acc = r.combine(r.init(...s), xs, ...s);
  for (let k = 1; acc && k < steps; k++) {
    const next = r.combine(acc, xs, ...s);
    if (!next) return undefined;
    if (d.covers(acc, next)) break;
    acc = d.join(acc, next);
  }
  // An empty group gives 0 without finalize.
  return d.join(r.finalize(acc, r.count, ...s), d.lit(0));
}
