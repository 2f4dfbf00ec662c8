import type { Expr } from './ast.js';
import { EXP_RANGE, TRIG_RANGE } from './magnitude-runtime.js';
import { FUNCTIONS, GPU_MAX } from './functions.js';

// The functions the GPU computes with code of its own rather than GLSL's: gpu.js helper functions (JS that gpu.js
// translates to GLSL), added to the kernels of the ops that call them. GLSL ES 1.0 (WebGL1) has no expm1, log1p,
// tanh, sinh, asinh, atanh or round-half-to-even, and promises no precision for sin, tan, asin or atan (drivers
// compute sin to an absolute error, so sin(1e-6) may be 0 or far off): so each helper is built from +, -, × (which
// GPUs round correctly), division (within a few ulps), floor, and GLSL's exp, log and sqrt only where a few ulps of
// theirs stay a few ulps of the result. Near 0, where TensorFlow's float32 results are accurate (expm1(1e-6) is 1e-6),
// each is a Taylor series of its own function, so it is accurate to a few ulps there on any GPU.
//
// Each helper takes a finite float32 that is zero or normal (the GPU backend screens its inputs) and returns the
// function within the GPU backend's precision rule (1e-5 relative), or the largest float32 where its argument is past
// the range it computes within that rule or where the result is inf or nan (the backend reruns a call whose result
// holds it on the JS kernels). magnitude-runtime.ts bounds their results for the subnormal screening. The sentinel
// is seen where it reaches the result, as in the map ops, whose expression is the function of x (and as pow's in
// sparse_dense_cwise_pow): an expression that went on to scale it would hide it.

/** A float32 literal as gpu.js and GLSL read it: the float32 nearest v, with a decimal point. */
function lit(v: number): string {
  const f = Math.fround(v);
  return Number.isInteger(f) ? `${f}.0` : String(f);
}

/** Σ c[i] z^i by Horner's rule, as gpu.js source. */
function horner(z: string, c: readonly number[]): string {
  return c.reduceRight((inner, ci, i) => (i === c.length - 1 ? lit(ci) : `(${lit(ci)} + ${z} * ${inner})`), '');
}

const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));
/** The coefficients of a Taylor series, c(n) for n = 0 … count - 1. */
const series = (count: number, c: (n: number) => number) => Array.from({ length: count }, (_, n) => c(n));

const PI_2 = Math.PI / 2;
/**
 * π/2 as C1 + C2 + C3 + C4: C1 … C3 of 13 significant bits, so that k · Ci is exact in float32 for |k| < 2^11 (|x| ≤
 * TRIG_RANGE), and C4 the float32 nearest the rest; the sum is within 2^-63 of π/2. x − k·C1 − k·C2 − k·C3 is then
 * exact, or the reduced value is large enough that its rounding is float32's own; so the reduced value is accurate to
 * within about 3e-16 + its rounding, and the least one of a float32 up to TRIG_RANGE is 4.2e-9 (x = 252.898…).
 */
const PI_2_PARTS = [1.570556640625, 0.0002396702766418457, 1.5890691429376602e-8, 2.5633440682570896e-12];
/** Below 2^-12, sin x and tan x round to x in float32 (x³/6 is below half an ulp of x). */
const TRIG_TINY = 2 ** -12;

/** sin r and cos r for |r| ≤ π/4 (a little more where k rounded), Taylor to r^11 and r^12: within 2^-36. */
const SIN_POLY = series(6, (n) => (n % 2 ? -1 : 1) / factorial(2 * n + 1));
const COS_POLY = series(7, (n) => (n % 2 ? -1 : 1) / factorial(2 * n));

/** A helper: its gpu.js source, and the helpers it calls. */
interface Helper {
  source: string;
  calls: string[];
}

const HELPERS: Record<string, Helper> = {
  spRint: {
    // x - floor(x) is exact; a tie goes to the even neighbour.
    source: `function spRint(x) {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1.0;
  if (d < 0.5) return f;
  return f + (f - 2.0 * Math.floor(f * 0.5));
}`,
    calls: [],
  },
  spExpm1: {
    // |x| < 0.5: Taylor to x^9 (the rest is below 2^-30 of the result); else exp(x) - 1 cancels by a factor of 3 at most.
    source: `function spExpm1(x) {
  if (x > ${lit(EXP_RANGE)}) return ${GPU_MAX};
  if (Math.abs(x) < 0.5) return x * ${horner(
    'x',
    series(9, (n) => 1 / factorial(n + 1)),
  )};
  return Math.exp(x) - 1.0;
}`,
    calls: [],
  },
  spLog1p: {
    // log1p(x) = 2 atanh(s), s = x / (2 + x), |s| ≤ 0.2: Taylor in s to s^13; below 2^-24 log1p(x) rounds to x; past
    // (-0.25, 0.5), log(1 + x) is at least 0.28 in magnitude, so 1 + x's rounding stays an ulp or two of it.
    source: `function spLog1p(x) {
  if (x <= -1.0) return ${GPU_MAX};
  if (Math.abs(x) < ${lit(2 ** -24)}) return x;
  if (x > -0.25 && x < 0.5) {
    const s = x / (2.0 + x);
    const z = s * s;
    return 2.0 * s * ${horner(
      'z',
      series(7, (n) => 1 / (2 * n + 1)),
    )};
  }
  return Math.log(1.0 + x);
}`,
    calls: [],
  },
  spReduce: {
    // x − k·π/2 in four steps (PI_2_PARTS).
    source: `function spReduce(x, k) {
  return ((x - k * ${lit(PI_2_PARTS[0])}) - k * ${lit(PI_2_PARTS[1])}) - k * ${lit(PI_2_PARTS[2])} - k * ${lit(PI_2_PARTS[3])};
}`,
    calls: [],
  },
  spSinPoly: {
    source: `function spSinPoly(r) {
  const z = r * r;
  return r + r * z * ${horner('z', SIN_POLY.slice(1))};
}`,
    calls: [],
  },
  spCosPoly: {
    source: `function spCosPoly(r) {
  const z = r * r;
  return 1.0 - 0.5 * z + z * z * ${horner('z', COS_POLY.slice(2))};
}`,
    calls: [],
  },
  spSin: {
    // k = round(x · 2/π); sin x is ±sin r or ±cos r by k mod 4.
    source: `function spSin(x) {
  if (Math.abs(x) > ${lit(TRIG_RANGE)}) return ${GPU_MAX};
  if (Math.abs(x) < ${lit(TRIG_TINY)}) return x;
  const k = Math.floor(x * ${lit(2 / Math.PI)} + 0.5);
  const r = spReduce(x, k);
  const q = k - 4.0 * Math.floor(k * 0.25);
  if (q === 0.0) return spSinPoly(r);
  if (q === 1.0) return spCosPoly(r);
  if (q === 2.0) return -spSinPoly(r);
  return -spCosPoly(r);
}`,
    calls: ['spReduce', 'spSinPoly', 'spCosPoly'],
  },
  spCos: {
    // cos x is ±cos r or ∓sin r by k mod 4.
    source: `function spCos(x) {
  if (Math.abs(x) > ${lit(TRIG_RANGE)}) return ${GPU_MAX};
  if (Math.abs(x) < ${lit(TRIG_TINY)}) return 1.0;
  const k = Math.floor(x * ${lit(2 / Math.PI)} + 0.5);
  const r = spReduce(x, k);
  const q = k - 4.0 * Math.floor(k * 0.25);
  if (q === 0.0) return spCosPoly(r);
  if (q === 1.0) return -spSinPoly(r);
  if (q === 2.0) return -spCosPoly(r);
  return spSinPoly(r);
}`,
    calls: ['spReduce', 'spSinPoly', 'spCosPoly'],
  },
  spTan: {
    // tan x is sin r / cos r for even k, -cos r / sin r for odd k.
    source: `function spTan(x) {
  if (Math.abs(x) > ${lit(TRIG_RANGE)}) return ${GPU_MAX};
  if (Math.abs(x) < ${lit(TRIG_TINY)}) return x;
  const k = Math.floor(x * ${lit(2 / Math.PI)} + 0.5);
  const r = spReduce(x, k);
  const s = spSinPoly(r);
  const c = spCosPoly(r);
  if (k - 2.0 * Math.floor(k * 0.5) === 0.0) return s / c;
  return -c / s;
}`,
    calls: ['spReduce', 'spSinPoly', 'spCosPoly'],
  },
  spAtan: {
    // atan |x| = base + atan t with |t| ≤ tan(π/8): π/2 + atan(-1/|x|) past tan(3π/8), π/4 + atan((|x| - 1) / (|x| + 1))
    // past tan(π/8); Taylor in t to t^21.
    source: `function spAtan(x) {
  const ax = Math.abs(x);
  let base = 0.0;
  let t = ax;
  if (ax > ${lit(Math.tan((3 * Math.PI) / 8))}) {
    base = ${lit(PI_2)};
    t = -1.0 / ax;
  } else if (ax > ${lit(Math.tan(Math.PI / 8))}) {
    base = ${lit(Math.PI / 4)};
    t = (ax - 1.0) / (ax + 1.0);
  }
  const z = t * t;
  const y = base + (t + t * z * ${horner(
    'z',
    series(10, (n) => (n % 2 ? 1 : -1) / (2 * n + 3)),
  )});
  if (x < 0.0) return -y;
  return y;
}`,
    calls: [],
  },
  spAsin: {
    // asin x = atan(x / sqrt((1 - |x|)(1 + |x|))): 1 - |x| is exact where it cancels, and atan does not widen the
    // quotient's relative error; nan past 1.
    source: `function spAsin(x) {
  const ax = Math.abs(x);
  if (ax > 1.0) return ${GPU_MAX};
  if (ax === 1.0) return x * ${lit(PI_2)};
  return spAtan(x / Math.sqrt((1.0 - ax) * (1.0 + ax)));
}`,
    calls: ['spAtan'],
  },
  spTanh: {
    // tanh |x| = e / (e + 2), e = expm1(2|x|); past 10 it rounds to 1.
    source: `function spTanh(x) {
  const ax = Math.abs(x);
  let y = 1.0;
  if (ax <= 10.0) {
    const e = spExpm1(2.0 * ax);
    y = e / (e + 2.0);
  }
  if (x < 0.0) return -y;
  return y;
}`,
    calls: ['spExpm1'],
  },
  spSinh: {
    // sinh |x| = (e + e / (e + 1)) / 2, e = expm1(|x|): two positive terms, no cancellation.
    source: `function spSinh(x) {
  const ax = Math.abs(x);
  if (ax > ${lit(EXP_RANGE)}) return ${GPU_MAX};
  const e = spExpm1(ax);
  const y = 0.5 * (e + e / (e + 1.0));
  if (x < 0.0) return -y;
  return y;
}`,
    calls: ['spExpm1'],
  },
  spCosh: {
    // cosh |x| = (e + 1 + 1 / (e + 1)) / 2, e = expm1(|x|): positive terms, no cancellation.
    source: `function spCosh(x) {
  const ax = Math.abs(x);
  if (ax > ${lit(EXP_RANGE)}) return ${GPU_MAX};
  const e = spExpm1(ax);
  return 0.5 * (e + 1.0 + 1.0 / (e + 1.0));
}`,
    calls: ['spExpm1'],
  },
  spAsinh: {
    // asinh |x| = log1p(|x| + x² / (1 + sqrt(1 + x²))); past 4096, log|x| + ln 2 (the rest is below 2^-28 of it).
    source: `function spAsinh(x) {
  const ax = Math.abs(x);
  let y = 0.0;
  if (ax > 4096.0) {
    y = Math.log(ax) + ${lit(Math.LN2)};
  } else {
    y = spLog1p(ax + (ax * ax) / (1.0 + Math.sqrt(1.0 + ax * ax)));
  }
  if (x < 0.0) return -y;
  return y;
}`,
    calls: ['spLog1p'],
  },
  spAtanh: {
    // atanh |x| = log1p(2|x| / (1 - |x|)) / 2; ±inf at ±1 and nan past.
    source: `function spAtanh(x) {
  const ax = Math.abs(x);
  if (ax >= 1.0) return ${GPU_MAX};
  const y = 0.5 * spLog1p((2.0 * ax) / (1.0 - ax));
  if (x < 0.0) return -y;
  return y;
}`,
    calls: ['spLog1p'],
  },
};

/** The sources of the helpers the GPU code of these expressions calls, each once, a helper's callees first. */
export function gpuHelpers(exprs: readonly Expr[]): string[] {
  const out: string[] = [];
  const add = (name: string) => {
    const helper = HELPERS[name];
    if (!helper) throw new Error(`gpuHelpers: no GPU helper '${name}'`);
    if (out.includes(helper.source)) return;
    helper.calls.forEach(add);
    out.push(helper.source);
  };
  const visit = (e: Expr): void => {
    if (e.kind === 'unary') visit(e.arg);
    else if (e.kind === 'binary') [e.left, e.right].forEach(visit);
    else if (e.kind === 'call') {
      e.args.forEach(visit);
      const { gpuHelper } = FUNCTIONS[e.fn];
      if (gpuHelper) add(gpuHelper);
    }
  };
  exprs.forEach(visit);
  return out;
}
