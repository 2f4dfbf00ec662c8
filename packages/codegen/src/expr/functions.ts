import type { DTypeName } from '../spec-types.js';

/**
 * The functions of the expression language, one entry each: what the checker, every emitter and the GPU's host-side
 * bounds need to know of a function. A new function is an entry here, its magnitudes (magnitude-runtime.ts, `M.<name>`)
 * and, if the GPU computes it with a helper, that helper (gpu-math.ts); the oracle of the property tests evaluates it
 * on its own (conformance/test/properties/dtype-arithmetic.ts).
 */
export interface FunctionDef {
  /** How many arguments it takes. */
  arity: number;
  /**
   * The dtypes TensorFlow has a kernel of it for: `numeric` (int32 and int64 too) or `float` (float32 and float64:
   * the checker refuses it for an integer dtype, as TensorFlow registers no integer kernel).
   */
  domain: 'numeric' | 'float';
  /** JS exact to the dtype's arithmetic (emit-js.ts): `a` the arguments' code, `round` rounds a float32 result. */
  js(a: string[], dtype: DTypeName, round: (code: string) => string): string;
  /** AssemblyScript for the dtype, whose AS type is `t` (emit-as.ts). */
  as(a: string[], dtype: DTypeName, t: string): string;
  /** gpu.js (float32; int32 where its int32 route allows), calling Math.* or `gpuHelper`. */
  gpu(a: string[]): string;
  /** The helper of gpu-math.ts it calls on the GPU, if any: the GPU kernels of an op that calls it get its source. */
  gpuHelper?: string;
  /**
   * int32 computed as float32 on the GPU: `exact` when it is exact for integers within 2^24 (int-range-runtime.ts has
   * its range, `R.<name>`), else why not, naming it.
   */
  int32: 'exact' | string;
}

const isInt = (dtype: DTypeName) => dtype === 'int32' || dtype === 'int64';

/**
 * A float function TensorFlow computes with its C library (Eigen calls std::<name>): JS's Math.<name>, and on wasm
 * AssemblyScript's NativeMath (musl) in f64. float32 takes the f64 result rounded once, as the JS kernels do with
 * Math.fround: within an ulp of the exact value, and the same float32 as the JS kernels' on every float32 input
 * (kernels-as/scripts/libm-float32-agreement.mjs; AssemblyScript's own f32 functions, NativeMathf, round differently). float64 may differ from the JS kernels' in the last bit (musl's
 * functions and V8's fdlibm are each within 2 ulps of the exact value). On the GPU, `helper` of gpu-math.ts.
 */
function libm(name: string, helper: string): FunctionDef {
  return {
    arity: 1,
    domain: 'float',
    js: ([x], _dtype, round) => round(`Math.${name}(${x})`),
    as: ([x], _dtype, t) => (t === 'f32' ? `<f32>NativeMath.${name}(<f64>${x})` : `NativeMath.${name}(${x})`),
    gpu: ([x]) => `${helper}(${x})`,
    gpuHelper: helper,
    int32: `${name} (not an integer)`,
  };
}

/** floor and ceil: exact in every target's float arithmetic. */
function integral(name: 'floor' | 'ceil'): FunctionDef {
  return {
    arity: 1,
    domain: 'float',
    js: ([x], _dtype, round) => round(`Math.${name}(${x})`),
    as: ([x], _dtype, t) => `${name}<${t}>(${x})`,
    gpu: ([x]) => `Math.${name}(${x})`,
    int32: `${name} (not an integer)`,
  };
}

/**
 * round half to even, the float rounding of TensorFlow's rint and round (an integer is its own rounding, as
 * tf.math.round returns it): JS by a helper, wasm by its own instruction (f32.nearest rounds half to even).
 */
function halfToEven(domain: FunctionDef['domain']): FunctionDef {
  return {
    arity: 1,
    domain,
    js: ([x], dtype, round) => (isInt(dtype) ? x : round(`h.rint(${x})`)),
    as: ([x], dtype, t) => (isInt(dtype) ? x : `nearest<${t}>(${x})`),
    gpu: ([x]) => `spRint(${x})`,
    gpuHelper: 'spRint',
    int32: 'exact',
  };
}

const DEFS = {
  min: {
    arity: 2,
    domain: 'numeric',
    js: ([a, b], dtype) => (dtype === 'int64' ? `h.min64(${a}, ${b})` : `Math.min(${a}, ${b})`),
    as: ([a, b], _dtype, t) => `min<${t}>(${a}, ${b})`,
    gpu: ([a, b]) => `Math.min(${a}, ${b})`,
    int32: 'exact',
  },
  max: {
    arity: 2,
    domain: 'numeric',
    js: ([a, b], dtype) => (dtype === 'int64' ? `h.max64(${a}, ${b})` : `Math.max(${a}, ${b})`),
    as: ([a, b], _dtype, t) => `max<${t}>(${a}, ${b})`,
    gpu: ([a, b]) => `Math.max(${a}, ${b})`,
    int32: 'exact',
  },
  abs: {
    arity: 1,
    domain: 'numeric',
    js: ([x], dtype) =>
      dtype === 'int64' ? `h.abs64(${x})` : dtype === 'int32' ? `(Math.abs(${x}) | 0)` : `Math.abs(${x})`,
    as: ([x], _dtype, t) => `abs<${t}>(${x})`,
    gpu: ([x]) => `Math.abs(${x})`,
    int32: 'exact',
  },
  sign: {
    arity: 1,
    domain: 'numeric',
    js: ([x], dtype) =>
      dtype === 'int64' ? `h.sign64(${x})` : dtype === 'int32' ? `Math.sign(${x})` : `h.signF(${x})`,
    as: ([x], dtype, t) => (isInt(dtype) ? `isign<${t}>(${x})` : `fsign<${t}>(${x})`),
    gpu: ([x]) => `Math.sign(${x})`,
    int32: 'exact',
  },
  pow: {
    arity: 2,
    domain: 'numeric',
    js: ([a, b], dtype, round) =>
      dtype === 'int64'
        ? `h.pow64(${a}, ${b})`
        : dtype === 'int32'
          ? `h.pow32(${a}, ${b})`
          : round(`Math.pow(${a}, ${b})`),
    as: ([a, b], dtype, t) =>
      isInt(dtype)
        ? `ipow<${t}>(${a}, ${b})`
        : t === 'f32'
          ? `<f32>Math.pow(<f64>${a}, <f64>${b})`
          : `Math.pow(${a}, ${b})`,
    // GLSL leaves pow undefined for a negative base, and for 0 to a power ≤ 0 (drivers return 0 for 1/0): those
    // entries yield the largest float32, so the call is rerun on the JS kernels.
    gpu: ([a, b]) => `((${a} < 0.0 || (${a} === 0.0 && ${b} <= 0.0)) ? ${GPU_MAX} : Math.pow(${a}, ${b}))`,
    int32: 'pow (powers by squaring, wrapping; negative exponents refused)',
  },
  where: {
    arity: 3,
    domain: 'numeric',
    js: ([c, x, y]) => `(${c} ? ${x} : ${y})`,
    as: ([c, x, y]) => `(${c} ? ${x} : ${y})`,
    gpu: ([c, x, y]) => `(${c} ? ${x} : ${y})`,
    int32: 'exact',
  },
  sqrt: {
    arity: 1,
    domain: 'float',
    js: ([x], _dtype, round) => round(`Math.sqrt(${x})`),
    // Correctly rounded in f32 as in f64: the f32 instruction is the JS kernels' fround(Math.sqrt(x)).
    as: ([x], _dtype, t) => `sqrt<${t}>(${x})`,
    gpu: ([x]) => `Math.sqrt(${x})`,
    int32: 'sqrt (not an integer)',
  },
  exp: {
    arity: 1,
    domain: 'float',
    js: ([x], _dtype, round) => round(`Math.exp(${x})`),
    // V8's own exp (kernels-as/assembly/fdlibm-exp.ts), so that wasm gives the JS kernels' values to the bit.
    as: ([x], _dtype, t) => (t === 'f32' ? `<f32>fdlibmExp(<f64>${x})` : `fdlibmExp(${x})`),
    gpu: ([x]) => `Math.exp(${x})`,
    int32: 'exp (not an integer)',
  },
  log: {
    arity: 1,
    domain: 'float',
    js: ([x], _dtype, round) => round(`Math.log(${x})`),
    as: ([x], _dtype, t) => (t === 'f32' ? `<f32>Math.log(<f64>${x})` : `Math.log(${x})`),
    gpu: ([x]) => `Math.log(${x})`,
    int32: 'log (not an integer)',
  },
  expm1: libm('expm1', 'spExpm1'),
  log1p: libm('log1p', 'spLog1p'),
  sin: libm('sin', 'spSin'),
  cos: libm('cos', 'spCos'),
  tan: libm('tan', 'spTan'),
  tanh: libm('tanh', 'spTanh'),
  asin: libm('asin', 'spAsin'),
  atan: libm('atan', 'spAtan'),
  sinh: libm('sinh', 'spSinh'),
  cosh: libm('cosh', 'spCosh'),
  asinh: libm('asinh', 'spAsinh'),
  atanh: libm('atanh', 'spAtanh'),
  floor: integral('floor'),
  ceil: integral('ceil'),
  rint: halfToEven('float'),
  round: halfToEven('numeric'),
} satisfies Record<string, FunctionDef>;

export type FunctionName = keyof typeof DEFS;
export const FUNCTIONS: Readonly<Record<FunctionName, FunctionDef>> = DEFS;

/**
 * The largest float32: what `inf` becomes on the GPU (GLSL ES has no infinity literal, and gpu.js none to offer), and
 * what a GPU step gives where GLSL leaves its result undefined or a helper its argument out of range.
 */
export const GPU_MAX = '3.4028234663852886e38';
