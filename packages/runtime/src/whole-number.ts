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
 * A whole number given as a number, a bigint or (`digits`) a string of digits, as a JS number. sparse holds dims,
 * indices, axes and sizes as JS numbers, exact up to 2^53 - 1: a whole number past that is refused as too large (an
 * InvalidArgumentError, as TensorFlow refuses an int64 it cannot hold), never rounded; `what` names it.
 */
export function readWholeNumber(x: unknown, what: string, rules: WholeNumberRules = {}): number {
  if (typeof x === 'number') {
    if (Number.isSafeInteger(x)) return x;
    if (!Number.isInteger(x)) {
      if (rules.fraction === 'TypeError') throw new TypeError(`${what} must be a whole number, got ${describe(x)}`);
      throw new InvalidArgumentError(`${what} = ${describe(x)} is not a whole number`);
    }
    // Whole, but past 2^53 - 1 a JS number may already have lost digits. Its exact value is shown, in digits
    // while JS would not write it with an exponent.
    const text = Math.abs(x) < 1e21 ? BigInt(x).toString() : String(x);
    throw tooLarge(what, text, x >= -(2 ** 63) && x < 2 ** 63);
  }
  if (typeof x === 'bigint') return exactWhole(x, what, String(x));
  if (rules.digits && typeof x === 'string' && /^-?\d+$/.test(x)) {
    if (x.replace(/^-?0*/, '').length > INT64_DIGITS) throw tooLarge(what, describe(x), false);
    return exactWhole(BigInt(x), what, x);
  }
  throw new TypeError(`${what} must be a whole number, got ${describe(x)}`);
}

function exactWhole(v: bigint, what: string, text: string): number {
  if (v >= SAFE_MIN && v <= SAFE_MAX) return Number(v);
  throw tooLarge(what, text, v >= INT64_MIN && v <= INT64_MAX);
}

function tooLarge(what: string, text: string, fitsInt64: boolean): InvalidArgumentError {
  return new InvalidArgumentError(
    fitsInt64
      ? `${what} = ${text} is too large: sparse takes whole numbers up to 2^53 - 1 here (TensorFlow's int64 reaches 2^63 - 1)`
      : `${what} = ${text} is too large: it does not fit in int64`,
  );
}
