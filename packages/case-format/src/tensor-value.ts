import type { DTypeName } from './dtypes.js';
import { formatValue } from './format-value.js';
import { decodeFloat, isDigitString } from './number-spellings.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** One value of a tensor read by its dtype: the value normalized (as in a tensor view), or why it is none. */
export type ReadValue = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * Reads one value of an expected tensor of `dtype`: float32/float64 as numbers (`nan`, `inf`, `-inf` spelt as
 * strings), int32 as a whole number in range, int64 as a bigint (from a safe number or a digit string), bool and
 * string as themselves.
 */
export function readTensorValue(v: unknown, dtype: DTypeName): ReadValue {
  const article = dtype.startsWith('int') ? 'an' : 'a';
  const bad = (why = `is not ${article} ${dtype} value`): ReadValue => ({
    ok: false,
    problem: `${formatValue(v)} ${why}`,
  });
  switch (dtype) {
    case 'float32':
    case 'float64': {
      const x = decodeFloat(v);
      return x === undefined
        ? bad(`is not ${article} ${dtype} value (a number, or nan, inf, -inf)`)
        : { ok: true, value: x };
    }
    case 'int32':
      return Number.isInteger(v) && (v as number) >= INT32_MIN && (v as number) <= INT32_MAX
        ? { ok: true, value: v }
        : bad();
    case 'int64':
      if (typeof v === 'number' && Number.isInteger(v)) {
        // JSON and YAML numbers past 2^53 have already lost digits.
        return Number.isSafeInteger(v)
          ? { ok: true, value: BigInt(v) }
          : bad('is beyond 2^53: write it as a string of digits');
      }
      return isDigitString(v) ? { ok: true, value: BigInt(v) } : bad();
    case 'bool':
      return typeof v === 'boolean' ? { ok: true, value: v } : bad('is not a bool value (true or false)');
    case 'string':
      return typeof v === 'string' ? { ok: true, value: v } : bad('is not a string value (quote it)');
  }
}
