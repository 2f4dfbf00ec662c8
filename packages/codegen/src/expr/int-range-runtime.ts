// Ranges of int32 values computed in float32 on the GPU. The int32 bounds that emit-int-range.ts generates call these
// functions; the generator copies this file into the GPU backend (generated/int-range.ts), so the two never disagree.
//
// A Range is the interval of the values one step of an expression can take, as the JS kernels compute them in int32,
// and whether they are all integers. undefined means a step may not be exact in float32: an arithmetic operand or
// result beyond 2^24 (float32 holds every integer up to there, and a sum, difference or product of such integers
// that stays within it is exact), or a value float32 cannot hold. The dtype limits (min_value, max_value) are ±Infinity
// here: the GPU holds them as ±the largest float32, not as ±2^31, which orders the same against every value within
// 2^24 (so min, max and comparisons with them are exact) but is not the same number (so arithmetic on them is not).

export interface Range {
  lo: number;
  hi: number;
  int: boolean;
}
export type Maybe = Range | undefined;

/** Every integer up to here is exact in float32. */
export const EXACT = 2 ** 24;

const BOOL: Range = { lo: 0, hi: 1, int: true };

/** Whether a range holds only integers that float32 computes with exactly. */
export function exact(r: Maybe): r is Range {
  return r !== undefined && r.int && r.lo >= -EXACT && r.hi <= EXACT;
}

/** The result of an arithmetic step: defined only if its operands and its every value are exact. */
function arith(lo: number, hi: number, ...operands: Maybe[]): Maybe {
  if (!operands.every(exact)) return undefined;
  const r = { lo, hi, int: true };
  return exact(r) ? r : undefined;
}

/** A number the GPU receives (a literal, a scalar argument): defined if float32 holds it as it is. */
export function lit(v: number): Maybe {
  return Number.isFinite(v) && Math.fround(v) === v ? { lo: v, hi: v, int: Number.isInteger(v) } : undefined;
}

/** max_value (sign 1) or min_value (sign -1). */
export function limit(sign: 1 | -1): Range {
  return { lo: sign * Infinity, hi: sign * Infinity, int: true };
}

export function add(a: Maybe, b: Maybe): Maybe {
  return a && b && arith(a.lo + b.lo, a.hi + b.hi, a, b);
}

export function sub(a: Maybe, b: Maybe): Maybe {
  return a && b && arith(a.lo - b.hi, a.hi - b.lo, a, b);
}

export function mul(a: Maybe, b: Maybe): Maybe {
  if (!a || !b) return undefined;
  const p = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
  return arith(Math.min(...p), Math.max(...p), a, b);
}

export function neg(a: Maybe): Maybe {
  return a && arith(-a.hi, -a.lo, a);
}

export function abs(a: Maybe): Maybe {
  return a && arith(a.lo >= 0 ? a.lo : a.hi <= 0 ? -a.hi : 0, Math.max(Math.abs(a.lo), Math.abs(a.hi)), a);
}

/** sign picks -1, 0 or 1 by order alone: exact for any value the GPU holds in order. */
export function sign(a: Maybe): Maybe {
  return a && { lo: Math.sign(a.lo), hi: Math.sign(a.hi), int: true };
}

/** round and rint of an integer: itself. */
export function round(a: Maybe): Maybe {
  return a;
}

export const rint = round;

/** min and max select an operand: exact whenever the operands are. */
export function min(a: Maybe, b: Maybe): Maybe {
  return a && b && { lo: Math.min(a.lo, b.lo), hi: Math.min(a.hi, b.hi), int: a.int && b.int };
}

export function max(a: Maybe, b: Maybe): Maybe {
  return a && b && { lo: Math.max(a.lo, b.lo), hi: Math.max(a.hi, b.hi), int: a.int && b.int };
}

/** A comparison or a logical operation: exact (0 or 1) whenever its operands are. */
export function cond(...operands: Maybe[]): Maybe {
  return operands.every((o) => o !== undefined) ? BOOL : undefined;
}

/** where(c, a, b): either branch. */
export function where(c: Maybe, a: Maybe, b: Maybe): Maybe {
  return c && join(a, b);
}

/** The values of either range. */
export function join(a: Maybe, b: Maybe): Maybe {
  return a && b && { lo: Math.min(a.lo, b.lo), hi: Math.max(a.hi, b.hi), int: a.int && b.int };
}

/** Whether every value of b is in a. */
export function covers(a: Range, b: Range): boolean {
  return a.lo <= b.lo && b.hi <= a.hi && (!a.int || b.int);
}
