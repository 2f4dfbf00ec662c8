import { wholeLiteral, type Expr, type FunctionName } from '@sparse/codegen/backend-kit';

/** The dtypes WGSL computes natively: f32 and i32. */
export type WgslDtype = 'float32' | 'int32';
export const WGSL_TYPE: Record<WgslDtype, 'f32' | 'i32'> = { float32: 'f32', int32: 'i32' };

/**
 * What makes an expression's meaning for a dtype other than WGSL's: the op × dtype is not generated, and the host
 * runs it on the JS kernels with `reason` (a phrase naming the step, e.g. "division (…)").
 */
export class NotWgsl extends Error {
  override name = 'NotWgsl';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The largest float32: `inf` and the float limits on the GPU (WGSL has no infinity; the host screens results). */
const F32_MAX = '3.4028234663852886e38f';
/** 2^126: past it, WGSL promises no accuracy for a divisor. */
const F32_DIV_MAX = '8.507059173023462e37';

/**
 * The WGSL helper functions an f32 lowering may call, by name: their source and the helpers they call. A step
 * WGSL leaves undefined (a negative base of pow, a square root of a negative number, a logarithm of 0, a
 * divisor of 0, an overflowing exp, an argument past the range where the helper is accurate) returns
 * `sp_nan()`, a NaN read from the kernel's parameters (P[1], so no constant folding can assume it away): the
 * host sees it in the result and reruns the call on the JS kernels, which give TensorFlow's value.
 * The transcendental functions are Cephes' single-precision ones (S. Moshier), within a few float32 ulps
 * over their ranges: WGSL's own sin, cos, tan, atan, asin and tanh promise only absolute or 4096-ulp accuracy.
 */
const HELPERS: Record<string, { deps: string[]; code: string }> = {
  sp_nan: { deps: [], code: `fn sp_nan() -> f32 { return bitcast<f32>(P[1]); }` },
  sp_div: {
    deps: ['sp_nan'],
    code: `fn sp_div(a: f32, b: f32) -> f32 {
  if (b == 0.0 || abs(b) > ${F32_DIV_MAX}) { return sp_nan(); }
  return a / b;
}`,
  },
  sp_sqrt: {
    deps: ['sp_nan'],
    code: `fn sp_sqrt(x: f32) -> f32 {
  if (x < 0.0) { return sp_nan(); }
  if (x == 0.0) { return x; }
  return sqrt(x);
}`,
  },
  sp_exp: {
    deps: ['sp_nan'],
    code: `fn sp_exp(x: f32) -> f32 {
  if (x > 88.72) { return sp_nan(); }
  return exp(x);
}`,
  },
  sp_log: {
    deps: ['sp_nan'],
    code: `fn sp_log(x: f32) -> f32 {
  if (x <= 0.0) { return sp_nan(); }
  return log(x);
}`,
  },
  // a^b for a > 0 as exp2(b log2 a), refused where it would overflow; a negative base only with a whole exponent.
  sp_pow: {
    deps: ['sp_nan'],
    code: `fn sp_pow_pos(a: f32, b: f32) -> f32 {
  let e = b * log2(a);
  if (e > 127.99) { return sp_nan(); }
  return exp2(e);
}
fn sp_pow(a: f32, b: f32) -> f32 {
  if (b == 0.0 || a == 1.0) { return 1.0; }
  if (a > 0.0) { return sp_pow_pos(a, b); }
  if (a == 0.0) {
    if (b > 0.0) { return 0.0; }
    return sp_nan();
  }
  if (floor(b) != b) { return sp_nan(); }
  let m = sp_pow_pos(-a, b);
  if (fract(b * 0.5) != 0.0) { return -m; }
  return m;
}`,
  },
  // |x| < 0.5: Taylor to x^9 (the rest is below 2^-30 of the result); else exp(x) - 1 cancels by a factor of 3 at most.
  sp_expm1: {
    deps: ['sp_nan'],
    code: `fn sp_expm1(x: f32) -> f32 {
  if (x > 88.72) { return sp_nan(); }
  if (abs(x) < 0.5) { return x * (1.0 + x * (0.5 + x * (0.16666666666666666 + x * (0.041666666666666664 + x * (0.008333333333333333 + x * (0.001388888888888889 + x * (0.0001984126984126984 + x * (2.48015873015873e-05 + x * (2.7557319223985893e-06 + x * (2.755731922398589e-07)))))))))); }
  return exp(x) - 1.0;
}`,
  },
  // log1p(x) = 2 atanh(s), s = x / (2 + x), |s| <= 0.2: Taylor in s to s^15; below 2^-24 log1p(x) rounds to x; past
  // (-0.25, 0.5), log(1 + x) is at least 0.28 in magnitude, so 1 + x's rounding stays an ulp or two of it.
  sp_log1p: {
    deps: ['sp_nan'],
    code: `fn sp_log1p(x: f32) -> f32 {
  if (x <= -1.0) { return sp_nan(); }
  if (abs(x) < 5.9604644775390625e-8) { return x; }
  if (x > -0.25 && x < 0.5) {
    let s = x / (2.0 + x);
    let z = s * s;
    return 2.0 * s * (1.0 + z * (0.3333333333333333 + z * (0.2 + z * (0.14285714285714285 + z * (0.1111111111111111 + z * (0.09090909090909091 + z * (0.07692307692307693 + z * (0.06666666666666667))))))));
  }
  return log(1.0 + x);
}`,
  },
  // x mod pi/4 (Cody and Waite, three parts of pi/4), accurate for |x| <= 8192; the octant j, even. Near a multiple
  // of pi/4 the reduced argument cancels down to the rounding of the steps (which a shader compiler may reorder):
  // there it is NaN, so the host reruns the call on the JS kernels rather than return a result off by more than 1e-5.
  sp_reduce: {
    deps: ['sp_nan'],
    code: `struct SpOctant { r: f32, j: u32 }
fn sp_reduce(x: f32) -> SpOctant {
  var j = u32(x * 1.27323954473516);
  var y = f32(j);
  if ((j & 1u) == 1u) { j = j + 1u; y = y + 1.0; }
  let r = ((x - y * 0.78515625) - y * 2.4187564849853515625e-4) - y * 3.77489497744594108e-8;
  if (y > 0.0 && abs(r) < y * 2.0e-5) { return SpOctant(sp_nan(), j & 7u); }
  return SpOctant(r, j & 7u);
}
fn sp_sin_poly(x: f32) -> f32 {
  let z = x * x;
  return ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1) * z * x + x;
}
fn sp_cos_poly(x: f32) -> f32 {
  let z = x * x;
  return ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2) * z * z - 0.5 * z + 1.0;
}`,
  },
  sp_sin: {
    deps: ['sp_nan', 'sp_reduce'],
    code: `fn sp_sin(v: f32) -> f32 {
  let x = abs(v);
  if (x > 8192.0) { return sp_nan(); }
  var sg = select(1.0, -1.0, v < 0.0);
  let o = sp_reduce(x);
  var j = o.j;
  if (j > 3u) { sg = -sg; j = j - 4u; }
  let y = select(sp_sin_poly(o.r), sp_cos_poly(o.r), j == 1u || j == 2u);
  return sg * y;
}`,
  },
  sp_cos: {
    deps: ['sp_nan', 'sp_reduce'],
    code: `fn sp_cos(v: f32) -> f32 {
  let x = abs(v);
  if (x > 8192.0) { return sp_nan(); }
  var sg = 1.0;
  let o = sp_reduce(x);
  var j = o.j;
  if (j > 3u) { sg = -sg; j = j - 4u; }
  if (j > 1u) { sg = -sg; }
  let y = select(sp_cos_poly(o.r), sp_sin_poly(o.r), j == 1u || j == 2u);
  return sg * y;
}`,
  },
  sp_tan: {
    deps: ['sp_nan', 'sp_reduce'],
    code: `fn sp_tan(v: f32) -> f32 {
  let x = abs(v);
  if (x > 8192.0) { return sp_nan(); }
  let o = sp_reduce(x);
  let z = o.r;
  let zz = z * z;
  var y = z;
  if (x > 1.0e-4) {
    y = (((((9.38540185543e-3 * zz + 3.11992232697e-3) * zz + 2.44301354525e-2) * zz + 5.34112807005e-2) * zz
      + 1.33387994085e-1) * zz + 3.33331568548e-1) * zz * z + z;
  }
  if ((o.j & 2u) == 2u) {
    if (y == 0.0) { return sp_nan(); }
    y = -1.0 / y;
  }
  return select(y, -y, v < 0.0);
}`,
  },
  sp_tanh: {
    deps: [],
    code: `fn sp_tanh(x: f32) -> f32 {
  let z = abs(x);
  if (z > 44.0) { return sign(x); }
  if (z >= 0.625) {
    let s = exp(z + z);
    return select(1.0, -1.0, x < 0.0) * (1.0 - 2.0 / (s + 1.0));
  }
  let s = x * x;
  return ((((-5.70498872745e-3 * s + 2.06390887954e-2) * s - 5.37397155531e-2) * s + 1.33314422036e-1) * s
    - 3.33332819422e-1) * s * x + x;
}`,
  },
  sp_sinh: {
    deps: ['sp_nan'],
    code: `fn sp_sinh(x: f32) -> f32 {
  let a = abs(x);
  if (a > 88.72) { return sp_nan(); }
  if (a > 1.0) {
    let e = exp(a);
    return select(1.0, -1.0, x < 0.0) * (0.5 * e - 0.5 / e);
  }
  let z = x * x;
  return ((2.03721912945e-4 * z + 8.33028376239e-3) * z + 1.66667160211e-1) * z * x + x;
}`,
  },
  sp_cosh: {
    deps: ['sp_nan'],
    code: `fn sp_cosh(x: f32) -> f32 {
  let a = abs(x);
  if (a > 88.72) { return sp_nan(); }
  let e = exp(a);
  return 0.5 * e + 0.5 / e;
}`,
  },
  sp_asin: {
    deps: ['sp_nan'],
    code: `fn sp_asin(v: f32) -> f32 {
  let a = abs(v);
  if (a > 1.0) { return sp_nan(); }
  if (a < 1.0e-4) { return v; }
  var x = a;
  var z = a * a;
  let far = a > 0.5;
  if (far) {
    z = 0.5 * (1.0 - a);
    x = select(sqrt(z), 0.0, z == 0.0);
  }
  var y = ((((4.2163199048e-2 * z + 2.4181311049e-2) * z + 4.5470025998e-2) * z + 7.4953002686e-2) * z
    + 1.6666752422e-1) * z * x + x;
  if (far) { y = 1.5707963267948966 - (y + y); }
  return select(y, -y, v < 0.0);
}`,
  },
  sp_atan: {
    deps: [],
    code: `fn sp_atan(v: f32) -> f32 {
  var x = abs(v);
  var y = 0.0;
  if (x > 2.414213562373095) {
    y = 1.5707963267948966;
    x = -(1.0 / x);
  } else if (x > 0.4142135623730950) {
    y = 0.7853981633974483;
    x = (x - 1.0) / (x + 1.0);
  }
  let z = x * x;
  y = y + ((((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z - 3.33329491539e-1) * z * x + x);
  return select(y, -y, v < 0.0);
}`,
  },
  sp_asinh: {
    deps: [],
    code: `fn sp_asinh(v: f32) -> f32 {
  let x = abs(v);
  var y = 0.0;
  if (x > 1500.0) {
    y = log(x) + 0.693147180559945309;
  } else if (x < 0.5) {
    let z = x * x;
    y = (((2.0122003309e-2 * z - 4.2699340972e-2) * z + 7.4847586088e-2) * z - 1.6666288134e-1) * z * x + x;
  } else {
    y = log(x + sqrt(x * x + 1.0));
  }
  return select(y, -y, v < 0.0);
}`,
  },
  sp_atanh: {
    deps: ['sp_nan'],
    code: `fn sp_atanh(x: f32) -> f32 {
  let a = abs(x);
  if (a >= 1.0) { return sp_nan(); }
  if (a < 1.0e-4) { return x; }
  if (a < 0.5) {
    let z = x * x;
    return ((((1.81740078349e-1 * z + 8.24370301058e-2) * z + 1.46691431730e-1) * z + 1.99782164500e-1) * z
      + 3.33337300303e-1) * z * x + x;
  }
  return 0.5 * log((1.0 + x) / (1.0 - x));
}`,
  },
};

type Lowering = (a: string[], dtype: WgslDtype, use: (helper: string) => void) => string;

/** The dtype's meaning is not WGSL's: throw from a lowering. */
const not = (reason: string): never => {
  throw new NotWgsl(reason);
};

/** A float function (the checker refuses it for integers): a helper of HELPERS, or a WGSL builtin. */
const helper =
  (name: string): Lowering =>
  ([x], dtype, use) => {
    if (dtype !== 'float32') not(`${name.replace(/^sp_/, '')} (not an integer function)`);
    use(name);
    return `${name}(${x})`;
  };
const builtin =
  (name: string): Lowering =>
  ([x], dtype) =>
    dtype === 'float32' ? `${name}(${x})` : not(`${name} (not an integer function)`);

/**
 * The WebGPU target's lowering of each function of the expression language (functions.ts), per dtype: WGSL, or
 * NotWgsl where WGSL's meaning for the dtype is not TensorFlow's.
 */
export const WGSL_FUNCTIONS: Record<FunctionName, Lowering> = {
  min: ([a, b]) => `min(${a}, ${b})`,
  max: ([a, b]) => `max(${a}, ${b})`,
  // WGSL's abs of the most negative i32 is itself, as int32 wraps in TensorFlow.
  abs: ([x]) => `abs(${x})`,
  sign: ([x], dtype) => (dtype === 'int32' ? `select(select(0i, -1i, ${x} < 0i), 1i, ${x} > 0i)` : `sign(${x})`),
  pow: ([a, b], dtype, use) => {
    if (dtype === 'int32')
      not("pow (TensorFlow's int32 power wraps and fails on a negative exponent; WGSL has no integer pow)");
    use('sp_pow');
    return `sp_pow(${a}, ${b})`;
  },
  where: ([c, x, y]) => `select(${y}, ${x}, ${c})`,
  sqrt: helper('sp_sqrt'),
  exp: helper('sp_exp'),
  log: helper('sp_log'),
  expm1: helper('sp_expm1'),
  log1p: helper('sp_log1p'),
  sin: helper('sp_sin'),
  cos: helper('sp_cos'),
  tan: helper('sp_tan'),
  tanh: helper('sp_tanh'),
  asin: helper('sp_asin'),
  atan: helper('sp_atan'),
  sinh: helper('sp_sinh'),
  cosh: helper('sp_cosh'),
  asinh: helper('sp_asinh'),
  atanh: helper('sp_atanh'),
  floor: builtin('floor'),
  ceil: builtin('ceil'),
  // WGSL's round rounds half to even, as TensorFlow's rint and round of floats do; an integer is its own rounding.
  rint: builtin('round'),
  round: ([x], dtype) => (dtype === 'int32' ? x : `round(${x})`),
};

/**
 * Emits an expression as WGSL for f32 or i32, `vars` mapping each variable to the WGSL that reads it. The f32
 * helpers it calls are added to `helpers` (wgslHelpers gives their source). Throws NotWgsl where WGSL's meaning
 * is not TensorFlow's for the dtype: int32 division (TensorFlow fails on a zero divisor; WGSL returns the
 * dividend), int32 pow. i32 +, -, * and negation wrap in WGSL as in TensorFlow.
 */
export function emitWgsl(e: Expr, dtype: WgslDtype, vars: Record<string, string>, helpers: Set<string>): string {
  const go = (x: Expr) => emitWgsl(x, dtype, vars, helpers);
  switch (e.kind) {
    case 'number':
      return literal(e.text, dtype);
    case 'var':
      return vars[e.name];
    case 'const':
      if (dtype === 'int32') return e.name === 'min_value' ? '(-2147483647i - 1i)' : '2147483647i';
      return e.name === 'min_value' ? `(-${F32_MAX})` : F32_MAX;
    case 'unary':
      return e.op === '!' ? `(!${go(e.arg)})` : `(-${go(e.arg)})`;
    case 'binary': {
      const [l, r] = [go(e.left), go(e.right)];
      if (e.op === '/') {
        if (dtype === 'int32')
          not("division (TensorFlow's int32 division fails on a zero divisor, WGSL's returns the dividend)");
        helpers.add('sp_div');
        return `sp_div(${l}, ${r})`;
      }
      return `(${l} ${e.op} ${r})`;
    }
    case 'call':
      return WGSL_FUNCTIONS[e.fn](e.args.map(go), dtype, (h) => helpers.add(h));
  }
}

function literal(text: string, dtype: WgslDtype): string {
  if (dtype === 'int32') {
    const v = wholeLiteral(text);
    if (v === undefined || v > 2147483647n) return not(`the literal ${text} (not an int32)`);
    return `${v}i`;
  }
  const v = Math.fround(Number(text));
  if (!Number.isFinite(v)) return not(`the literal ${text} (past float32)`);
  // The shortest decimal of the float32 value, so that WGSL reads back exactly it.
  const s = String(v);
  return /[.e]/.test(s) ? `${s}f` : `${s}.0f`;
}

/** The WGSL source of the helpers named (and those they call), in a fixed order. */
export function wgslHelpers(names: Iterable<string>): string {
  const all = new Set<string>();
  const add = (n: string) => {
    if (all.has(n)) return;
    all.add(n);
    HELPERS[n].deps.forEach(add);
  };
  for (const n of names) add(n);
  return Object.keys(HELPERS)
    .filter((n) => all.has(n))
    .map((n) => HELPERS[n].code)
    .join('\n');
}
