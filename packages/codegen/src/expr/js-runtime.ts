// Support functions that generated JS kernels call for what one JS operator cannot say exactly per dtype.
// The generator copies this file into the JS backend (generated/expr-runtime.ts) and also runs it at build time
// (to check that a map's f(0) = 0), so the two can never disagree. The copy imports KernelError from
// @sparse/kernel-abi, which holds a copy of ../kernel-error.ts.

import { KernelError } from '../kernel-error.js';

/** int32 division: truncates toward zero as C++ does; wraps on INT_MIN / -1; refuses a zero divisor. */
export function div32(a: number, b: number): number {
  if (b === 0) throw new KernelError('DIV_BY_ZERO');
  return (a / b) | 0;
}

/** int64 division: truncates toward zero; wraps on INT64_MIN / -1; refuses a zero divisor. */
export function div64(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new KernelError('DIV_BY_ZERO');
  return BigInt.asIntN(64, a / b);
}

/** int32 power by squaring, wrapping as int32 multiplication does; a negative exponent is refused as TensorFlow does. */
export function pow32(base: number, exp: number): number {
  if (exp < 0) throw new KernelError('NEGATIVE_POWER');
  let result = 1;
  let b = base;
  for (let e = exp; e > 0; e >>>= 1) {
    if (e & 1) result = Math.imul(result, b);
    b = Math.imul(b, b);
  }
  return result;
}

/** int64 power by squaring, wrapping to 64 bits; a negative exponent is refused. */
export function pow64(base: bigint, exp: bigint): bigint {
  if (exp < 0n) throw new KernelError('NEGATIVE_POWER');
  let result = 1n;
  let b = base;
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) result = BigInt.asIntN(64, result * b);
    b = BigInt.asIntN(64, b * b);
  }
  return result;
}

/** The sign of a float: -1, 0 (for both zeros) or 1; NaN stays NaN. */
export function signF(x: number): number {
  return Math.sign(x) + 0;
}

/**
 * Rounds half to even, as C's rint does in the default rounding mode (TensorFlow's rint, and its round of floats):
 * Math.round rounds half up, so a tie it took up to an odd number goes back down. x - Math.round(x) is exact.
 */
export function rint(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

export function sign64(x: bigint): bigint {
  return x > 0n ? 1n : x < 0n ? -1n : 0n;
}

export function abs64(x: bigint): bigint {
  return x < 0n ? BigInt.asIntN(64, -x) : x;
}

export function min64(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function max64(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
