import Decimal from 'decimal.js';
import { afterAll, describe, expect, it } from 'vitest';
import { SparseTensor, createRuntime, listBackends, type Runtime } from '@sparse/runtime';

// The value maps of the expression language's float functions, on every backend, against a high-precision reference
// (decimal.js at 60 significant digits, rounded once to the dtype), on a grid of float32 inputs that reaches down to
// the smallest normal float32. The bounds asserted, in ulps of the exact value:
// - js: float32 within 0.5 ulp plus the float64 function's own error (correctly rounded but at near ties);
//   float64 within 2 ulps (V8's fdlibm: tanh, sinh, asinh, atanh and expm1 are 1.0 to 1.7 ulps off at worst here).
// - wasm: float32 the same bits as js; float64 within 2 ulps (musl's functions, not V8's: they may differ in the
//   last bit).
// - gpu: the GPU's own float32 results (not those it delegated) within GPU_ULPS, and within the GPU backend's
//   precision rule (1e-5 relative); its delegated ones are the JS kernels' (exact). rint, round, floor and ceil are
//   exact on every backend.

const D = Decimal.clone({ precision: 60 });
type Dec = InstanceType<typeof D>;

/** The exact functions, in decimal. */
const EXACT: Record<string, (x: Dec) => Dec> = {
  expm1: (x) => x.exp().minus(1),
  log1p: (x) => x.plus(1).ln(),
  sin: (x) => x.sin(),
  tan: (x) => x.tan(),
  // decimal.js's tanh takes minutes past |x| = 1e5: (1 - t) / (1 + t), t = e^-2|x|, there.
  tanh: (x) => {
    if (x.abs().lt(1)) return x.tanh();
    const t = x.abs().times(-2).exp();
    return new D(1).minus(t).div(t.plus(1)).times(D.sign(x));
  },
  asin: (x) => x.asin(),
  atan: (x) => x.atan(),
  sinh: (x) => x.sinh(),
  asinh: (x) => x.asinh(),
  atanh: (x) => x.atanh(),
  floor: (x) => x.floor(),
  ceil: (x) => x.ceil(),
  rint: (x) => x.toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN),
  round: (x) => x.toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN),
};

const powers = new Map<number, Dec>();
/** 2^e, exactly (to 60 digits), once per e. */
function pow2(e: number): Dec {
  let p = powers.get(e);
  if (!p) powers.set(e, (p = new D(2).pow(e)));
  return p;
}

/** x exactly, from its bits (`new Decimal(x)` reads x's shortest decimal, which is not x). */
function exactly(x: number): Dec {
  if (x === 0 || !Number.isFinite(x)) return new D(x);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  const fraction = bits & ((1n << 52n) - 1n);
  const [mantissa, exponent] = biased === 0 ? [fraction, -1074] : [fraction | (1n << 52n), biased - 1075];
  const v = new D(mantissa.toString()).times(pow2(exponent));
  return x < 0 ? v.neg() : v;
}

const ROUNDING = new Set(['floor', 'ceil', 'rint', 'round']);

/**
 * The ulps the GPU's own float32 results may be off by: anywhere, GPU_ULPS (GLSL's exp and log, which the helpers
 * call past |x| = 0.25, are that far off at the ends of their range); for |x| < 0.25, where the helpers compute with
 * +, -, ×, division and sqrt only (Taylor series), GPU_NEAR_ZERO_ULPS.
 */
const GPU_ULPS = 64;
const GPU_NEAR_ZERO_ULPS = 4;

const f = Math.fround;

/** Each function's domain: where its float32 result is finite. */
const DOMAIN: Record<string, (x: number) => boolean> = {
  expm1: (x) => x < 88.7,
  log1p: (x) => x > -1,
  sinh: (x) => Math.abs(x) < 89.4,
  asin: (x) => Math.abs(x) <= 1,
  atanh: (x) => Math.abs(x) < 1,
};

/**
 * The grid: ±m · 2^e for e from -126 to 11 and a few mantissas m (so down to the smallest normal float32, and every
 * binade of the near-0 range), whole and half numbers, values next to 1 and to multiples of π/2, and the largest
 * float32s of a few functions' ranges; each as float32, in the function's domain.
 */
function grid(fn: string): number[] {
  const xs = new Set<number>([0]);
  for (let e = -126; e <= 11; e++) for (const m of [1, 1.1, 1.37, 1.5, 1.75, 1.999]) xs.add(f(m * 2 ** e));
  for (let i = -40; i <= 40; i++) xs.add(i / 2).add(f(i / 2 + 0.1));
  for (const x of [0.99999994, 0.9999, 0.7, 0.5000001, 0.49999997, 252.89821, 505.79642, 3.1415927, 1.5707964])
    xs.add(f(x));
  for (const x of [88, 88.5, 50, 1e4, 1e6, 1e10, 1e30, 3e38, 4194304.5, 8388607.5]) xs.add(f(x));
  const inDomain = DOMAIN[fn] ?? (() => true);
  return [...xs].flatMap((x) => [x, -x]).filter(inDomain);
}

/** float32's (or float64's) ulp at the magnitude of d: the spacing of the binade it is in. */
function ulpAt(d: Dec, dtype: 'float32' | 'float64'): Dec {
  const [bits, minExp] = dtype === 'float32' ? [24, -126] : [53, -1022];
  const m = d.abs();
  let e = m.isZero() ? minExp : Math.floor(Math.log2(m.toNumber()));
  // the float64 nearest d may sit across a power of two from it
  if (pow2(e).gt(m)) e--;
  else if (pow2(e + 1).lte(m)) e++;
  return pow2(Math.max(e, minExp) - bits + 1);
}

/** The error of `got` in ulps of the exact value (0 where both are the same infinity or nan). */
function ulpsOff(got: number, exact: Dec, dtype: 'float32' | 'float64'): number {
  if (!exact.isFinite() || !Number.isFinite(got))
    return Object.is(got, exact.toNumber()) || (Number.isNaN(got) && exact.isNaN()) ? 0 : Infinity;
  return exactly(got).minus(exact).abs().div(ulpAt(exact, dtype)).toNumber();
}

interface Run {
  values: number[];
  /** Whether each value came from the backend's own kernel (not delegated). */
  own: boolean[];
}

/** The op of fn on each value, in chunks (a chunk the GPU delegates leaves the others on the GPU). */
async function mapOn(rt: Runtime, fn: string, xs: number[], dtype: 'float32' | 'float64'): Promise<Run> {
  const run: Run = { values: [], own: [] };
  for (let i = 0; i < xs.length; i += 8) {
    const chunk = xs.slice(i, i + 8);
    const st = new SparseTensor(
      chunk.map((_, j) => [j]),
      chunk,
      [chunk.length],
      dtype,
    );
    const { outputs, delegated } = await rt.runWithReportAsync(`sparse_${fn}`, { sp_input: st });
    const out = outputs.output as SparseTensor;
    run.values.push(...Array.from(out.values as Float32Array | Float64Array));
    run.own.push(...chunk.map(() => delegated === undefined));
  }
  return run;
}

const runtimes = new Map<string, Promise<Runtime>>();
const runtimeOf = (backend: string) => {
  if (!runtimes.has(backend)) runtimes.set(backend, createRuntime({ backend }));
  return runtimes.get(backend)!;
};
afterAll(async () => {
  for (const rt of runtimes.values()) (await rt).dispose();
});

/** The worst error of a run, and where. */
function worst(xs: number[], run: Run, exact: Dec[], dtype: 'float32' | 'float64', only = (_i: number) => true) {
  let max = 0;
  let at = '';
  xs.forEach((x, i) => {
    if (!only(i)) return;
    const off = ulpsOff(run.values[i], exact[i], dtype);
    if (off > max) {
      max = off;
      at = `x = ${x}: got ${run.values[i]}, exact ${exact[i].toSignificantDigits(20)}`;
    }
  });
  return { max, at };
}

const backends = listBackends();

for (const fn of Object.keys(EXACT)) {
  describe(`sparse_${fn}`, () => {
    const xs = grid(fn);
    const exact = xs.map((x) => EXACT[fn](exactly(x)));
    let js32: Promise<Run> | undefined;
    /** The float32 results on js, which every backend's are compared with. */
    const onJs = () => (js32 ??= runtimeOf('js').then((rt) => mapOn(rt, fn, xs, 'float32')));

    it('float32 on js: within half an ulp (and the float64 function error) of the exact value', async () => {
      const js = await onJs();
      const { max, at } = worst(xs, js, exact, 'float32');
      expect(max, at).toBeLessThanOrEqual(ROUNDING.has(fn) ? 0 : 0.5 + 2 ** -20);
      // the sign of a zero is kept
      const zeros = (await mapOn(await runtimeOf('js'), fn, [0, -0], 'float32')).values;
      expect(zeros.map((z) => Object.is(z, -0))).toEqual([false, true]);
    });

    it('float64 on js and wasm: within 2 ulps of the exact value', async () => {
      const xs64 = [...xs, ...xs.map((x) => x * (1 + 2 ** -40))].filter(DOMAIN[fn] ?? (() => true));
      const exact64 = xs64.map((x) => EXACT[fn](exactly(x)));
      for (const backend of backends.filter((b) => b !== 'gpu')) {
        const run = await mapOn(await runtimeOf(backend), fn, xs64, 'float64');
        const { max, at } = worst(xs64, run, exact64, 'float64');
        expect(max, `${backend}: ${at}`).toBeLessThanOrEqual(ROUNDING.has(fn) ? 0 : 2);
      }
    });

    if (backends.includes('wasm'))
      it('float32 on wasm: the same bits as js', async () => {
        const js = await onJs();
        const wasm = await mapOn(await runtimeOf('wasm'), fn, xs, 'float32');
        expect(wasm.own.every(Boolean)).toBe(true);
        const differ = xs.filter((_, i) => !Object.is(wasm.values[i], js.values[i]));
        expect(differ).toEqual([]);
      });

    for (const onGpu of backends.filter((b) => b === 'gpu' || b === 'webgpu'))
      it(`float32 on ${onGpu}: its own results within ${GPU_ULPS} ulps (${GPU_NEAR_ZERO_ULPS} near 0) and 1e-5 relative, its delegated ones exact`, async () => {
        const gpu = await mapOn(await runtimeOf(onGpu), fn, xs, 'float32');
        const js = await onJs();
        const own = (i: number) => gpu.own[i];
        // Most of the grid runs on the GPU itself (chunks near the subnormal range or past a helper's range do not).
        expect(xs.filter((_, i) => own(i)).length).toBeGreaterThan(xs.length / 2);
        const { max, at } = worst(xs, gpu, exact, 'float32', own);
        expect(max, at).toBeLessThanOrEqual(ROUNDING.has(fn) ? 0 : GPU_ULPS);
        const near = worst(xs, gpu, exact, 'float32', (i) => own(i) && Math.abs(xs[i]) < 0.25);
        expect(near.max, near.at).toBeLessThanOrEqual(ROUNDING.has(fn) ? 0 : GPU_NEAR_ZERO_ULPS);
        xs.forEach((_, i) => {
          if (own(i)) expect(Math.abs(gpu.values[i] - js.values[i])).toBeLessThanOrEqual(1e-5 * Math.abs(js.values[i]));
          else expect(gpu.values[i]).toBe(js.values[i]);
        });
      });
  });
}
