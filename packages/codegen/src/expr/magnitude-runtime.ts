// Magnitudes of float32 values computed on the GPU. GPUs flush subnormal float32 values (nonzero and below 2^-126 in
// magnitude) to zero, where the JS kernels keep them: the float32 bounds that emit-magnitude.ts generates call these
// functions, and the GPU backend keeps a call off the GPU when a step of it could take such a value. The generator
// copies this file into the GPU backend (generated/magnitude.ts), so the two never disagree.
//
// Magnitudes are what one step of an expression can take: 0, or a value of magnitude within [lo, hi], every value a
// whole multiple of `grid` (a power of two). Zero is always allowed. undefined means a step may take a subnormal value.
//
// The grid is what makes sums sound however much they cancel: a float32 of magnitude at least m is a multiple of
// float32's spacing at m, and so is every rounded sum of such values (rounding to a coarser spacing keeps the
// multiple, and where the spacing is finer the sum is exact), so a nonzero sum is at least the grid. Products, + and -
// are correctly rounded on the GPU as in the JS kernels, and rounding is monotone, so bounds that are float32s (span)
// on the exact value bound the rounded one. The steps a GPU computes only approximately (division, as a product with
// the reciprocal; sqrt, exp, log, pow, and the functions of gpu-math.ts) take a margin of a factor of 2 on each side,
// far wider than their error.

export interface Magnitudes {
  /** No nonzero value is smaller in magnitude (Infinity: none is finite). */
  lo: number;
  /** No value is larger in magnitude (0: every value is 0). */
  hi: number;
  /** Every value is a whole multiple of this power of two (Infinity: every value is 0). */
  grid: number;
}
export type Maybe = Magnitudes | undefined;

/** The smallest normal float32: GPUs flush every nonzero value below it to zero. */
export const MIN_NORMAL = 2 ** -126;

/** The largest float32: what the GPU holds for inf and the dtype limits (GLSL ES has no infinity). */
const FLOAT32_MAX = 3.4028234663852886e38;

const ZERO: Magnitudes = { lo: Infinity, hi: 0, grid: Infinity };
const ONE: Magnitudes = { lo: 1, hi: 1, grid: 1 };

/** float32's spacing at magnitude m: every float32 of magnitude at least m is a whole multiple of it. */
function spacingAt(m: number): number {
  if (m === Infinity) return Infinity;
  let e = Math.floor(Math.log2(m));
  // Math.log2 may round across a power of two: settle e so that 2^e <= m < 2^(e+1).
  if (2 ** e > m) e--;
  else if (2 ** (e + 1) <= m) e++;
  return 2 ** Math.max(e - 23, -149);
}

const float32 = new Float32Array(1);
const bits = new Uint32Array(float32.buffer);

/** The greatest float32 at most x (x ≥ 0). */
function float32AtMost(x: number): number {
  float32[0] = x;
  if (float32[0] > x) bits[0]--;
  return float32[0];
}

/** The least float32 at least x (x ≥ 0; past the largest float32, Infinity). */
function float32AtLeast(x: number): number {
  float32[0] = x;
  if (float32[0] < x) bits[0]++;
  return float32[0];
}

/**
 * Nonzero magnitudes from lo to hi (lo > 0), widened to float32s: a correctly rounded result of a value within them
 * is within them too. undefined if lo is below the smallest normal.
 */
export function span(lo: number, hi: number): Maybe {
  const least = float32AtMost(lo);
  return least < MIN_NORMAL ? undefined : { lo: least, hi: float32AtLeast(hi), grid: spacingAt(least) };
}

/** A step the GPU may compute only approximately: its exact bounds widened by a factor of 2 each way. */
function approximate(lo: number, hi: number): Maybe {
  return span(lo / 2, hi * 2);
}

/** A number the GPU receives (a literal, a scalar argument), as float32 holds it. */
export function lit(v: number): Maybe {
  const f = Math.abs(Math.fround(v));
  if (!Number.isFinite(f)) return undefined;
  return f === 0 ? ZERO : span(f, f);
}

/** inf, max_value, min_value: the GPU holds each as ±the largest float32. */
export function limit(): Maybe {
  return span(FLOAT32_MAX, FLOAT32_MAX);
}

/** a + b or a - b: however much it cancels, a nonzero result is at least the finer of the operands' grids. */
export function add(a: Maybe, b: Maybe): Maybe {
  if (!a || !b) return undefined;
  if (a.hi === 0) return b;
  if (b.hi === 0) return a;
  const grid = Math.min(a.grid, b.grid);
  return grid < MIN_NORMAL ? undefined : { lo: grid, hi: float32AtLeast(a.hi + b.hi), grid };
}

export const sub = add;

export function mul(a: Maybe, b: Maybe): Maybe {
  if (!a || !b) return undefined;
  if (a.hi === 0 || b.hi === 0) return ZERO;
  return span(a.lo * b.lo, a.hi * b.hi);
}

/** a / b, which a GPU may compute as a · (1 / b): the reciprocal must be normal too. */
export function div(a: Maybe, b: Maybe): Maybe {
  if (!a || !b) return undefined;
  // Division by zero gives inf or nan, which the GPU backend screens in the results.
  if (b.hi === 0) return { lo: Infinity, hi: Infinity, grid: Infinity };
  return mul(a, approximate(1 / b.hi, 1 / b.lo));
}

export function neg(a: Maybe): Maybe {
  return a;
}

export function abs(a: Maybe): Maybe {
  return a;
}

export function sign(a: Maybe): Maybe {
  return a && (a.hi === 0 ? ZERO : ONE);
}

/** min and max select an operand. */
export function min(a: Maybe, b: Maybe): Maybe {
  return join(a, b);
}

export function max(a: Maybe, b: Maybe): Maybe {
  return join(a, b);
}

/** A comparison or a logical operation: 0 or 1, once its operands are computed. */
export function cond(...operands: Maybe[]): Maybe {
  return operands.every((o) => o !== undefined) ? ONE : undefined;
}

/** where(c, a, b): either branch. */
export function where(c: Maybe, a: Maybe, b: Maybe): Maybe {
  return c && join(a, b);
}

export function sqrt(a: Maybe): Maybe {
  if (!a) return undefined;
  return a.hi === 0 ? ZERO : approximate(Math.sqrt(a.lo), Math.sqrt(a.hi));
}

/** exp(x) for |x| up to hi (exp(0) is 1). */
export function exp(a: Maybe): Maybe {
  if (!a) return undefined;
  return a.hi === 0 ? ONE : approximate(Math.exp(-a.hi), Math.exp(a.hi));
}

/** log(x): |log x| is smallest next to 1, where the float32 nearest below 1 gives about 2^-24. */
export function log(a: Maybe): Maybe {
  if (!a) return undefined;
  // log(0) is -inf, which the GPU backend screens in the results.
  if (a.hi === 0) return { lo: Infinity, hi: Infinity, grid: Infinity };
  const [l, h] = [Math.abs(Math.log(a.lo)), Math.abs(Math.log(a.hi))];
  const least = a.lo <= 1 && 1 <= a.hi ? 2 ** -24 : Math.min(l, h);
  return approximate(least, Math.max(l, h));
}

/**
 * pow(a, b) for a ≥ 0 (the GPU kernels send a negative base to the JS kernels): |log2 of the result| is at most
 * |b| · |log2 a|; pow(a, 0) and pow(1, b) are 1, pow(0, b) is 0 (b > 0).
 */
export function pow(a: Maybe, b: Maybe): Maybe {
  if (!a || !b) return undefined;
  const log2a = Math.max(Math.abs(Math.log2(a.lo)), Math.abs(Math.log2(a.hi)));
  if (a.hi === 0 || b.hi === 0 || log2a === 0) return ONE;
  return approximate(2 ** -(b.hi * log2a), 2 ** (b.hi * log2a));
}

// The functions the GPU computes with helpers of its own (codegen/src/expr/gpu-math.ts): each gives a float32 within
// the GPU's precision rule where its argument is within the helper's range, and the largest float32 (a sentinel: the
// GPU backend reruns a call whose result holds it on the JS kernels) outside it. A helper's result takes the factor-2
// margin of the steps the GPU computes approximately; its own steps keep clear of the subnormal range (a term they
// compute may flush to zero only where it is below the result's rounding).

/** sin and tan reduce |x| ≤ TRIG_RANGE by multiples of π/2 within float32's rounding; past it, the sentinel. */
export const TRIG_RANGE = 2048;
/**
 * At most the least |sin x| of a float32 x ≥ 1.5 (|tan x| is never less): x's distance to the nearest multiple of π,
 * 3.2e-9 over every float32 (x = 1.5458358e29; 8.4e-9 up to TRIG_RANGE, at x = 505.79642), found by trying them all.
 */
export const FAR_TRIG_LEAST = 2 ** -29;
/** expm1 and sinh overflow float32 past about 88.72; the helpers give the sentinel past this. */
export const EXP_RANGE = 88.5;

/** A helper's result: within [lo, hi] up to the GPU's approximate steps, or the sentinel where `sentinel`. */
function helper(lo: number, hi: number, sentinel = false): Maybe {
  const m = approximate(lo, Math.min(hi, FLOAT32_MAX / 2));
  return m && sentinel ? { ...m, hi: FLOAT32_MAX } : m;
}

/** floor, ceil, rint, round: 0, or a whole number of magnitude at most hi + 1 (floor(-0.5) is -1). */
export function floor(a: Maybe): Maybe {
  if (!a) return undefined;
  return a.hi === 0 ? ZERO : { lo: 1, hi: float32AtLeast(a.hi + 1), grid: 1 };
}

export const ceil = floor;
export const rint = floor;
export const round = floor;

/** |expm1(x)| is least at x = -lo (1 - e^-lo, just below lo) and greatest at x = hi. */
export function expm1(a: Maybe): Maybe {
  if (!a) return undefined;
  return a.hi === 0 ? ZERO : helper(-Math.expm1(-a.lo), Math.expm1(a.hi), a.hi > EXP_RANGE);
}

/** |log1p(x)| is least at x = lo and greatest at x = -hi: -inf at -1 and nan below (the sentinel). */
export function log1p(a: Maybe): Maybe {
  if (!a) return undefined;
  return a.hi === 0 ? ZERO : helper(Math.log1p(a.lo), a.hi < 1 ? -Math.log1p(-a.hi) : FLOAT32_MAX, a.hi >= 1);
}

/** The least |sin x| (and |tan x|, never less) over the magnitudes: sin rises from 0 to 1.5, and past it FAR_TRIG_LEAST. */
function trigLeast(a: Magnitudes): number {
  const near = Math.sin(Math.min(a.lo, 1.5));
  return a.hi > 1.5 ? Math.min(near, FAR_TRIG_LEAST) : near;
}

export function sin(a: Maybe): Maybe {
  if (!a) return undefined;
  return a.hi === 0 ? ZERO : helper(trigLeast(a), Math.min(a.hi, 1), a.hi > TRIG_RANGE);
}

/** |cos x| is 1 at 0 and falls to cos(hi) below 1.5; past it, as near 0 as |sin x| comes (FAR_TRIG_LEAST). */
export function cos(a: Maybe): Maybe {
  if (!a) return undefined;
  return helper(a.hi > 1.5 ? FAR_TRIG_LEAST : Math.cos(a.hi), 1, a.hi > TRIG_RANGE);
}

/** Past 1.5, tan reaches its poles. */
export function tan(a: Maybe): Maybe {
  if (!a) return undefined;
  if (a.hi === 0) return ZERO;
  return a.hi > 1.5 ? helper(trigLeast(a), FLOAT32_MAX, true) : helper(trigLeast(a), Math.tan(a.hi));
}

export function tanh(a: Maybe): Maybe {
  if (!a) return undefined;
  return a.hi === 0 ? ZERO : helper(Math.tanh(a.lo), Math.tanh(a.hi));
}

/** asin x ≥ x on [0, 1]; past 1, nan (the sentinel). */
export function asin(a: Maybe): Maybe {
  if (!a) return undefined;
  return a.hi === 0 ? ZERO : helper(a.lo, Math.asin(Math.min(a.hi, 1)), a.hi > 1);
}

export function atan(a: Maybe): Maybe {
  if (!a) return undefined;
  return a.hi === 0 ? ZERO : helper(Math.atan(a.lo), Math.atan(a.hi));
}

/** sinh x ≥ x; it overflows past about 88.72 (the sentinel). */
export function sinh(a: Maybe): Maybe {
  if (!a) return undefined;
  return a.hi === 0 ? ZERO : helper(a.lo, Math.sinh(Math.min(a.hi, EXP_RANGE)), a.hi > EXP_RANGE);
}

/** cosh x ≥ 1; it overflows past about 88.72 (the sentinel). */
export function cosh(a: Maybe): Maybe {
  if (!a) return undefined;
  return helper(1, Math.cosh(Math.min(a.hi, EXP_RANGE)), a.hi > EXP_RANGE);
}

export function asinh(a: Maybe): Maybe {
  if (!a) return undefined;
  return a.hi === 0 ? ZERO : helper(Math.asinh(a.lo), Math.asinh(a.hi));
}

/** atanh x ≥ x on [0, 1); ±inf at ±1 and nan past (the sentinel). */
export function atanh(a: Maybe): Maybe {
  if (!a) return undefined;
  return a.hi === 0 ? ZERO : helper(a.lo, a.hi < 1 ? Math.atanh(a.hi) : FLOAT32_MAX, a.hi >= 1);
}

/** The values of either. */
export function join(a: Maybe, b: Maybe): Maybe {
  return a && b && { lo: Math.min(a.lo, b.lo), hi: Math.max(a.hi, b.hi), grid: Math.min(a.grid, b.grid) };
}

/** Whether every value of b is one of a. */
export function covers(a: Magnitudes, b: Magnitudes): boolean {
  return a.lo <= b.lo && b.hi <= a.hi && a.grid <= b.grid;
}
