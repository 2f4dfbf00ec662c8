import type { NumericDType } from './grid.js';

// TensorFlow's arithmetic per dtype, written from the spec language's rules (specs/README.md) rather than from the
// emitted kernels: integers compute exactly as bigints and then wrap to their width, float32 rounds every result.

/** A value as the oracles hold it: int64 as a bigint, the other numeric dtypes as numbers. */
export type Num = number | bigint;

/** What TensorFlow refuses to compute for integers; the op throws an InvalidArgumentError whose message matches `match`. */
export class ArithmeticRefusal extends Error {
  override name = 'ArithmeticRefusal';
  constructor(readonly match: string) {
    super(match);
  }
}

type Unary = (x: Num) => Num;
type Binary = (a: Num, b: Num) => Num;

export interface Arithmetic {
  dtype: NumericDType;
  zero: Num;
  /** A whole number (a count) as a value of the dtype. */
  fromInt(n: number): Num;
  literal(text: string): Num;
  limit(name: 'inf' | 'max_value' | 'min_value'): Num;
  neg: Unary;
  abs: Unary;
  sign: Unary;
  exp: Unary;
  log: Unary;
  sqrt: Unary;
  expm1: Unary;
  log1p: Unary;
  sin: Unary;
  cos: Unary;
  tan: Unary;
  tanh: Unary;
  asin: Unary;
  atan: Unary;
  sinh: Unary;
  cosh: Unary;
  asinh: Unary;
  atanh: Unary;
  floor: Unary;
  ceil: Unary;
  rint: Unary;
  round: Unary;
  add: Binary;
  sub: Binary;
  mul: Binary;
  div: Binary;
  min: Binary;
  max: Binary;
  pow: Binary;
}

export const isIntDType = (dtype: string): dtype is 'int32' | 'int64' => dtype === 'int32' || dtype === 'int64';

export function arithmeticOf(dtype: NumericDType): Arithmetic {
  return isIntDType(dtype) ? intArithmetic(dtype) : floatArithmetic(dtype);
}

function floatArithmetic(dtype: 'float32' | 'float64'): Arithmetic {
  const round = dtype === 'float32' ? Math.fround : (x: number) => x;
  const unary =
    (f: (x: number) => number): Unary =>
    (x) =>
      round(f(x as number));
  const binary =
    (f: (a: number, b: number) => number): Binary =>
    (a, b) =>
      round(f(a as number, b as number));
  const nan = (...xs: number[]) => xs.some(Number.isNaN);
  return {
    dtype,
    zero: 0,
    fromInt: (n) => round(n),
    literal: (text) => round(Number(text)),
    limit: (name) => (name === 'min_value' ? -Infinity : Infinity),
    neg: unary((x) => -x),
    abs: unary((x) => (x < 0 ? -x : x)),
    sign: unary((x) => (nan(x) ? NaN : x > 0 ? 1 : x < 0 ? -1 : 0)),
    exp: unary(Math.exp),
    log: unary(Math.log),
    sqrt: unary(Math.sqrt),
    expm1: unary(Math.expm1),
    log1p: unary(Math.log1p),
    sin: unary(Math.sin),
    cos: unary(Math.cos),
    tan: unary(Math.tan),
    tanh: unary(Math.tanh),
    asin: unary(Math.asin),
    atan: unary(Math.atan),
    sinh: unary(Math.sinh),
    cosh: unary(Math.cosh),
    asinh: unary(Math.asinh),
    atanh: unary(Math.atanh),
    floor: unary(Math.floor),
    ceil: unary(Math.ceil),
    rint: unary(halfToEven),
    round: unary(halfToEven),
    add: binary((a, b) => a + b),
    sub: binary((a, b) => a - b),
    mul: binary((a, b) => a * b),
    div: binary((a, b) => a / b),
    min: binary((a, b) => (nan(a, b) ? NaN : a < b ? a : b)),
    max: binary((a, b) => (nan(a, b) ? NaN : a > b ? a : b)),
    pow: binary(Math.pow),
  };
}

function intArithmetic(dtype: 'int32' | 'int64'): Arithmetic {
  const bits = dtype === 'int32' ? 32 : 64;
  const wrap = (v: bigint): Num => (bits === 64 ? BigInt.asIntN(64, v) : Number(BigInt.asIntN(32, v)));
  const unary =
    (f: (x: bigint) => bigint): Unary =>
    (x) =>
      wrap(f(BigInt(x)));
  const binary =
    (f: (a: bigint, b: bigint) => bigint): Binary =>
    (a, b) =>
      wrap(f(BigInt(a), BigInt(b)));
  const notInteger = () => {
    throw new Error(`exp, sin and the other float functions are not ${dtype} operations (codegen refuses them)`);
  };
  return {
    dtype,
    zero: wrap(0n),
    fromInt: (n) => wrap(BigInt(n)),
    literal: (text) => wrap(/^\d+$/.test(text) ? BigInt(text) : BigInt(Number(text))),
    limit: (name) => {
      if (name === 'inf') throw new Error(`inf is not a ${dtype} value (codegen refuses it)`);
      return wrap(name === 'max_value' ? 2n ** BigInt(bits - 1) - 1n : -(2n ** BigInt(bits - 1)));
    },
    neg: unary((x) => -x),
    abs: unary((x) => (x < 0n ? -x : x)),
    sign: unary((x) => (x > 0n ? 1n : x < 0n ? -1n : 0n)),
    exp: notInteger,
    log: notInteger,
    sqrt: notInteger,
    expm1: notInteger,
    log1p: notInteger,
    sin: notInteger,
    cos: notInteger,
    tan: notInteger,
    tanh: notInteger,
    asin: notInteger,
    atan: notInteger,
    sinh: notInteger,
    cosh: notInteger,
    asinh: notInteger,
    atanh: notInteger,
    floor: notInteger,
    ceil: notInteger,
    rint: notInteger,
    // tf.math.round returns an integer tensor as it is.
    round: (x) => x,
    add: binary((a, b) => a + b),
    sub: binary((a, b) => a - b),
    mul: binary((a, b) => a * b),
    // bigint division truncates toward zero, as C++ does; wrapping then gives INT_MIN / -1 = INT_MIN.
    div: binary((a, b) => {
      if (b === 0n) throw new ArithmeticRefusal('division by zero');
      return a / b;
    }),
    min: binary((a, b) => (a < b ? a : b)),
    max: binary((a, b) => (a > b ? a : b)),
    pow: binary((base, exponent) => {
      if (exponent < 0n) throw new ArithmeticRefusal('negative integer powers');
      return powModulo(base, exponent, bits);
    }),
  };
}

/**
 * The whole number nearest x, the even one at a tie (C's rint, TensorFlow's rint and float round), from the floor:
 * x - floor(x) is exact. A zero result keeps x's sign, as rint's does.
 */
function halfToEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const below = Math.floor(x);
  const above = x - below;
  const r = above < 0.5 ? below : above > 0.5 ? below + 1 : below % 2 === 0 ? below : below + 1;
  return r === 0 && (x < 0 || Object.is(x, -0)) ? -0 : r;
}

/** base ** exponent modulo 2^bits, by squaring: the exact power's low bits, without computing the power. */
function powModulo(base: bigint, exponent: bigint, bits: number): bigint {
  let result = 1n;
  let b = BigInt.asUintN(bits, base);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = BigInt.asUintN(bits, result * b);
    b = BigInt.asUintN(bits, b * b);
  }
  return result;
}
