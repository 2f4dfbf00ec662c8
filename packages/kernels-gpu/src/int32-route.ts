import * as R from './generated/int-range.js';
import type { GpuFamilySource } from './generated/families.js';
import { REASONS } from './delegation.js';
import { groupBound } from '@sparse/kernel-abi';

/**
 * The int32 route: int32 values run on the GPU as float32 when a bound computed on the host shows every step of the
 * call exact — every value an integer within 2^24, the integers float32 holds — and come back rounded into an
 * Int32Array, equal to the JS kernel's. Past the bound (where the JS kernels would wrap, or float32 would round) the
 * call is delegated, saying so (delegation.ts). The family ops' bounds are their spec expressions evaluated over value
 * ranges (generated, emit-int-range.ts); the matmul's is below.
 */

/** The range of integer values (an empty array as 0: nothing of it reaches the GPU). */
export function rangeOf(values: ArrayLike<number>): R.Range {
  if (values.length === 0) return { lo: 0, hi: 0, int: true };
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return { lo, hi, int: true };
}

/**
 * Why the GPU cannot compute this int32 family call exactly, or undefined if it can. `operands` are the ranges of
 * the kernel's value operands in order (map, reduce: x; cwise, merge: a, b); `groups` is a reduce's longest group and
 * group size.
 */
export function int32FamilyRefusal(
  src: GpuFamilySource,
  operands: R.Range[],
  scalars: number[],
  groups?: { longest: number; groupSize: number },
): string | undefined {
  const r = src.int32;
  if (!r) return REASONS.notFloat32('int32');
  if ('not' in r) return REASONS.int32NotArithmetic(r.not);
  const s = scalars.map(R.lit);
  let out: R.Maybe;
  if (src.family === 'reduce')
    out = groupBound(R, {
      init: r.init!,
      combine: r.combine!,
      finalize: r.finalize!,
      x: operands[0],
      scalars: s,
      longest: groups!.longest,
      includeZeros: !!src.includeZeros,
      count: { lo: 1, hi: groups!.longest, int: true },
    });
  else {
    out = r.value!(...operands, ...s);
    // merge: whether an entry is kept must be exact too.
    if (r.keep && !r.keep(out, ...operands, ...s)) return REASONS.int32Range;
  }
  return R.exact(out) ? undefined : REASONS.int32Range;
}

/** The most entries of any one group (a reduce plan's counts). */
export function longestGroup(counts: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i] > m) m = counts[i];
  return m;
}

/**
 * int32 sparse × dense: every partial sum of an output element is at most Σ|a| over its sparse row times max|b|, and
 * so is every product; that bound within 2^24 (and every operand within it) makes each step exact. Linear: one pass
 * over the entries (`rowOf`: which index column is the row) and one over the dense operand.
 */
export function int32MatmulRefusal(
  indices: ArrayLike<number>,
  values: ArrayLike<number>,
  rowOf: 0 | 1,
  rows: number,
  dense: ArrayLike<number>,
): string | undefined {
  const a = rangeOf(values);
  const b = rangeOf(dense);
  if (!R.exact(a) || !R.exact(b)) return REASONS.int32Range;
  const rowSum = new Float64Array(rows);
  let heaviest = 0;
  for (let p = 0; p < values.length; p++) {
    const r = indices[2 * p + rowOf];
    rowSum[r] += Math.abs(values[p]);
    if (rowSum[r] > heaviest) heaviest = rowSum[r];
  }
  return heaviest * Math.max(-b.lo, b.hi) <= R.EXACT ? undefined : REASONS.int32Range;
}

/** Values as the GPU takes them: float32 (int32 values within 2^24, checked above, convert exactly). */
export function asFloat32(values: ArrayLike<number>): Float32Array {
  return values instanceof Float32Array ? values : Float32Array.from(values);
}

/** A GPU result in the call's dtype: an int32 result holds whole numbers, rounded back into an Int32Array. */
export function fromGpu(values: Float32Array, dtype: string): Float32Array | Int32Array {
  if (dtype !== 'int32') return values;
  const out = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Math.round(values[i]);
  return out;
}
