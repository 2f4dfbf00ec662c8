import * as M from './generated/magnitude.js';
import { groupBound } from './group-bound.js';

/**
 * The subnormal bound the GPU backends share: GPUs may flush subnormal float32 values (nonzero, below 2^-126 in
 * magnitude) to zero, in results and in every step, and a flushed value comes back as an exact 0 or a wrong small
 * number that nothing in the output tells from a right one. So a float32 call runs on a GPU only where a bound
 * computed on the host shows that no step of it can take a subnormal value, given inputs already screened (finite,
 * zero or normal). The family ops' bounds are their spec expressions evaluated over the magnitudes of their operands
 * (generated per backend by codegen's emit-magnitude.ts, over magnitude.ts); the matmul's are below. Each takes one
 * pass over the operands.
 */

/** An op's expressions over float32 magnitudes, taking its variables (then its scalars) by position. */
export type MagnitudeFn = (...magnitudes: M.Maybe[]) => M.Maybe;

/** What a family op's bound needs: its family, its expressions over magnitudes, whether implicit zeros take part. */
export interface FamilyMagnitudes {
  family: 'map' | 'cwise' | 'merge' | 'reduce';
  float32: {
    value?: MagnitudeFn;
    keep?: MagnitudeFn;
    init?: MagnitudeFn;
    combine?: MagnitudeFn;
    finalize?: MagnitudeFn;
  };
  includeZeros?: boolean;
}

/** The magnitudes of float32 values: from the least nonzero to the greatest. */
export function magnitudesOf(values: ArrayLike<number>): M.Maybe {
  let lo = Infinity;
  let hi = 0;
  for (let i = 0; i < values.length; i++) {
    const m = Math.abs(values[i]);
    if (m === 0) continue;
    if (m < lo) lo = m;
    if (m > hi) hi = m;
  }
  return hi === 0 ? M.lit(0) : M.span(lo, hi);
}

/**
 * Whether a float32 family call could take a subnormal value. `operands` are the magnitudes of the kernel's value
 * operands in order (map, reduce: x; cwise, merge: a, b); `longest` is a reduce's longest group.
 */
export function familyMayBeSubnormal(
  op: FamilyMagnitudes,
  operands: M.Maybe[],
  scalars: number[],
  longest = 0,
): boolean {
  const f = op.float32;
  const s = scalars.map(M.lit);
  if (op.family === 'reduce')
    return !groupBound(M, {
      init: f.init!,
      combine: f.combine!,
      finalize: f.finalize!,
      x: operands[0],
      scalars: s,
      longest,
      includeZeros: !!op.includeZeros,
      count: M.span(1, longest),
    });
  const out = f.value!(...operands, ...s);
  // merge: whether an entry is kept is computed from its value.
  return !out || (!!f.keep && !f.keep(out, ...operands, ...s));
}

/** Whether a float32 sum of products of a stored value and a dense value (the matmul) could take a subnormal value. */
export function productsMayBeSubnormal(values: ArrayLike<number>, dense: ArrayLike<number>): boolean {
  const product = M.mul(magnitudesOf(values), magnitudesOf(dense));
  return !M.add(product, product);
}
