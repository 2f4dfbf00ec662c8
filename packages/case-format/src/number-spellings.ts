/** The spellings case files need for numbers JSON cannot hold. */

/** JSON has no NaN or infinities, so case files spell them as strings inside float values. */
const SPECIAL_FLOATS: Record<string, number> = { nan: NaN, inf: Infinity, '-inf': -Infinity };

/** The number a float value stands for: itself, or the value of `nan`, `inf`, `-inf`; undefined if neither. */
export function decodeFloat(x: unknown): number | undefined {
  if (typeof x === 'number') return x;
  if (typeof x === 'string' && Object.hasOwn(SPECIAL_FLOATS, x)) return SPECIAL_FLOATS[x];
  return undefined;
}

/** int64 values beyond 2^53 are written as digit strings, as JSON numbers would lose them. */
export const isDigitString = (x: unknown): x is string => typeof x === 'string' && /^-?\d+$/.test(x);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A dim or index as a case and a result hold it, normalized so that equal values compare equal: a number while it is
 * exact (up to 2^53 - 1), a bigint past it; given as a number, a bigint or a digit string. Undefined if none, or
 * past int64.
 */
export function int64Entry(x: unknown): number | bigint | undefined {
  if (typeof x === 'number') return Number.isSafeInteger(x) ? x : undefined;
  const big = typeof x === 'bigint' ? x : isDigitString(x) ? BigInt(x) : undefined;
  if (big === undefined || big < INT64_MIN || big > INT64_MAX) return undefined;
  return Number.isSafeInteger(Number(big)) ? Number(big) : big;
}
