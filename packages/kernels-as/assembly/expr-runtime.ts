// What a generated expression calls where one wasm instruction is not TensorFlow's semantics.
import { fail } from './errors';
import { ERR_DIV_BY_ZERO, ERR_NEGATIVE_POWER } from './generated/error-codes';

/** Integer division truncating toward zero; INT_MIN / -1 wraps (wasm would trap); a zero divisor is an error. */
@inline export function idiv<T>(a: T, b: T): T {
  if (b == 0) {
    fail(ERR_DIV_BY_ZERO);
    return 0;
  }
  if (b == -1) return <T>(0 - a);
  return a / b;
}

/** Integer power by squaring, wrapping; a negative exponent is an error, as in TensorFlow. */
export function ipow<T>(base: T, exp: T): T {
  if (exp < 0) {
    fail(ERR_NEGATIVE_POWER);
    return 0;
  }
  let result: T = 1;
  let b = base;
  let e = exp;
  while (e > 0) {
    if (e & 1) result *= b;
    b *= b;
    e >>= 1;
  }
  return result;
}

/** -1, 0 or 1; both float zeros give 0 and NaN stays NaN. */
@inline export function fsign<T>(x: T): T {
  return x > 0 ? <T>1 : x < 0 ? <T>-1 : x == 0 ? <T>0 : x;
}

@inline export function isign<T>(x: T): T {
  return x > 0 ? <T>1 : x < 0 ? <T>-1 : <T>0;
}
