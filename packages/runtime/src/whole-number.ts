import { describe } from './dtype.js';
import { InvalidArgumentError } from './errors.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const SAFE_MIN = BigInt(Number.MIN_SAFE_INTEGER);
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
// int64 has at most 19 digits: a longer string of digits is past it, and is not parsed.
const INT64_DIGITS = 19;

export interface WholeNumberRules {
  /** Whether a string of digits (`"12"`, `"-3"`) counts, as the case format writes int64 dims and list entries. */
  digits?: boolean;
  /** The error for a number with a fraction (1.5, NaN): TensorFlow's TypeError for an int argument, else InvalidArgument. */
  fraction?: 'TypeError' | 'InvalidArgument';
}

/**
 * A whole number given as a number, a bigint or (`digits`) a string of digits, as a JS number. Dims, indices, axes
 * and sizes are JS numbers, exact up to 2^53 - 1: a whole number past that is refused as too large (an
 * InvalidArgumentError, as TensorFlow refuses an int64 it cannot hold), never rounded; `what` names it. The dims and
 * indices of a sparse tensor, and the shapes of ops that hold them exactly, are read by readInt64 instead.
 */
export function readWholeNumber(x: unknown, what: string, rules: WholeNumberRules = {}): number {
  if (typeof x === 'number' && Number.isInteger(x) && !Number.isSafeInteger(x)) {
    throw tooLarge(what, wholeText(x), x >= -(2 ** 63) && x < 2 ** 63);
  }
  const v = readInt64(x, what, rules);
  if (typeof v === 'number') return v;
  throw tooLarge(what, String(v), true);
}

/**
 * A whole number within int64 (TensorFlow's dims and indices reach 2^63 - 1): a JS number up to 2^53 - 1, a bigint
 * past it, so that it is exact. A JS number past 2^53 - 1 may already have lost digits: refused, not rounded.
 */
export function readInt64(x: unknown, what: string, rules: WholeNumberRules = {}): number | bigint {
  if (typeof x === 'number') {
    if (Number.isSafeInteger(x)) return x;
    if (!Number.isInteger(x)) {
      if (rules.fraction === 'TypeError') throw new TypeError(`${what} must be a whole number, got ${describe(x)}`);
      throw new InvalidArgumentError(`${what} = ${describe(x)} is not a whole number`);
    }
    // Whole, but past 2^53 - 1 a JS number may already have lost digits.
    throw x >= -(2 ** 63) && x < 2 ** 63 ? inexact(what, wholeText(x)) : tooLarge(what, wholeText(x), false);
  }
  if (typeof x === 'bigint') return exactWhole(x, what, String(x));
  if (rules.digits && typeof x === 'string' && /^-?\d+$/.test(x)) {
    if (x.replace(/^-?0*/, '').length > INT64_DIGITS) throw tooLarge(what, describe(x), false);
    return exactWhole(BigInt(x), what, x);
  }
  throw new TypeError(`${what} must be a whole number, got ${describe(x)}`);
}

function exactWhole(v: bigint, what: string, text: string): number | bigint {
  if (v >= SAFE_MIN && v <= SAFE_MAX) return Number(v);
  if (v >= INT64_MIN && v <= INT64_MAX) return v;
  throw tooLarge(what, text, false);
}

// A whole JS number's exact value, in digits while JS would not write it with an exponent.
const wholeText = (x: number): string => (Math.abs(x) < 1e21 ? BigInt(x).toString() : String(x));

function inexact(what: string, text: string): InvalidArgumentError {
  return new InvalidArgumentError(
    `${what} = ${text} is too large to be exact as a JS number (past 2^53 - 1, it may already have lost digits): give it as a bigint or a string of digits`,
  );
}

function tooLarge(what: string, text: string, fitsInt64: boolean): InvalidArgumentError {
  return new InvalidArgumentError(
    fitsInt64
      ? `${what} = ${text} is too large: sparse takes whole numbers up to 2^53 - 1 here (TensorFlow's int64 reaches 2^63 - 1)`
      : `${what} = ${text} is too large: it does not fit in int64`,
  );
}
