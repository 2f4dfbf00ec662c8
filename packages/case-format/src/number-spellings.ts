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
