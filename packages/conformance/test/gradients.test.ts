import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, InvalidArgumentError, listBackends, tensor, type Runtime } from '@sparse/runtime';
import { rng } from '@sparse/test-kit/seeded-random';
import { isClose } from '../src/index.js';
import { ANALYTIC } from './gradients/analytic-gradients.js';
import { finiteDifferences, outputOfAsync } from './gradients/finite-differences.js';
import {
  DIFFERENTIABLE,
  inFloat64,
  redrawn,
  valuesOf,
  type Args,
  type FloatDType,
} from './gradients/gradient-cases.js';
import { SPECS } from './properties/spec-ops.js';

// Every gradient the specs declare (an op whose spec has `gradient:`, found here, never listed), checked on every
// backend against central finite differences of the op itself in float64 at its examples' arguments, their
// differentiable values redrawn; and, where its formula is written out (gradients/analytic-gradients.ts), against
// it on the examples' own values. The gpu backend computes in float32 only, and runs the gradient ops on the JS
// kernels (declared): there the float32 checks run.

// Bounded in runs, not in time: the same number of random cases on every machine. Fewer off js, which the
// property tests already hold every backend to: the suite's time stays as it was while the ops with a gradient grow.
const RUNS = Number(process.env.GRADIENT_RUNS ?? 20);
const runsOn = (backend: string) => (backend === 'js' ? RUNS : Math.ceil(RUNS * 0.4));
/** A fixed seed per check, so that a run is repeatable (GRADIENT_SEED varies it; a failure prints its own). */
const seedOf = (name: string) => {
  let h = Number(process.env.GRADIENT_SEED ?? 0x5eed);
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return h | 0;
};

/**
 * How close a gradient must be. Against finite differences (float64, error about 1e-10): float64 gradients to
 * 1e-6, float32 ones (each step rounded, about 1e-7 relative, over a few steps and sums) to 1e-4. Against the
 * formula on the examples: float64 to 1e-9, float32 to 1e-5 relative and 1e-6 absolute.
 */
export const TOLERANCE = {
  finiteDifferences: { float64: { rtol: 1e-6, atol: 1e-6 }, float32: { rtol: 1e-4, atol: 1e-4 } },
  formula: { float64: { rtol: 1e-9, atol: 1e-9 }, float32: { rtol: 1e-5, atol: 1e-6 } },
} as const;

const FLOAT_ONLY: Record<string, FloatDType[]> = { gpu: ['float32'] };

/** '' if `got` is within tolerance of `want`, else the first difference. */
function closeness(got: number[], want: number[], tol: { rtol: number; atol: number }, what: string): string {
  if (got.length !== want.length) return `${what}: ${got.length} values, expected ${want.length}`;
  const k = got.findIndex((g, i) => !isClose(g, want[i], tol));
  return k < 0 ? '' : `${what}[${k}] = ${got[k]}, expected ${want[k]} (±${tol.atol} + ${tol.rtol}·|expected|)`;
}

/**
 * The gradient of each differentiable argument, flat; null where the op gives none (a null sp_weights). Through
 * vjpAsync, which every backend has and an asynchronous one (webgpu) needs.
 */
async function vjpValues(rt: Runtime, op: string, args: Args, upstream: number[], shape: number[], dtype: FloatDType) {
  const grads = await rt.vjpAsync(op, args, tensor(upstream, dtype, shape));
  return Object.fromEntries(Object.entries(grads).map(([k, v]) => [k, v === null ? null : valuesOf(v)]));
}

describe('gradients declared by the specs', () => {
  it('each has arguments to be checked at, and a formula written out here only if it has a gradient', () => {
    expect(DIFFERENTIABLE.filter((d) => d.examples.length === 0).map((d) => d.spec.name)).toEqual([]);
    expect(Object.keys(ANALYTIC).filter((op) => !DIFFERENTIABLE.some((d) => d.spec.name === op))).toEqual([]);
  });

  it('every expression-family op computing in a float dtype has one (derived from its expressions)', () => {
    const missing = SPECS.filter((s) => s.compiled?.dtypes.some((d) => d.startsWith('float')) && !s.gradientOf);
    expect(missing.map((s) => s.name)).toEqual([]);
  });
});

for (const backend of listBackends()) {
  describe(`gradients on ${backend}`, () => {
    let rt: Runtime;
    let reference: Runtime;
    beforeAll(async () => {
      rt = await createRuntime({ backend });
      reference = await createRuntime({ backend: 'js' });
    });

    for (const { spec, wrt, floats, examples } of DIFFERENTIABLE) {
      const op = spec.name;
      for (const dtype of floats.filter((d) => (FLOAT_ONLY[backend] ?? floats).includes(d))) {
        it(`${op} (${dtype}) against finite differences`, async () => {
          const tol = TOLERANCE.finiteDifferences[dtype];
          await fc.assert(
            fc.asyncProperty(fc.constantFrom(...examples), fc.integer(), async (ex, seed) => {
              const r = rng(seed);
              const args = redrawn(op, ex.args, wrt, dtype, r);
              // Values the op refuses once redrawn (a weight of 0 no longer prunes an id out of range): no case.
              const out = await outputOfAsync(rt, op, args).catch((e: unknown) => {
                if (e instanceof InvalidArgumentError) return undefined;
                throw e;
              });
              fc.pre(out !== undefined);
              const upstream = out.values.map(() => 2 * r.next() - 1);
              const got = await vjpValues(rt, op, args, upstream, out.shape, dtype);
              const args64 = inFloat64(args);
              for (const name of wrt) {
                const x = args[name];
                if (x === null || x === undefined) {
                  expect(got[name], `${name} is absent or null here: no gradient`).toBeNull();
                  continue;
                }
                const want = finiteDifferences(reference, op, args64, name, upstream);
                // A step that adds or drops an output entry: no derivative to compare with here.
                fc.pre(want !== undefined);
                const problem = closeness(got[name]!, want!, tol, `${ex.name}: ${name}_grad`);
                if (problem) throw new Error(problem);
              }
            }),
            { numRuns: runsOn(backend), seed: seedOf(`${backend} ${op} ${dtype}`) },
          );
        });
      }

      const formula = ANALYTIC[op];
      if (!formula) continue;
      it(`${op} against its formula on the spec examples`, async () => {
        const checked = examples
          .filter((ex) => (FLOAT_ONLY[backend] ?? [ex.dtype]).includes(ex.dtype))
          // The formulas are of finite values (where a nan or an infinity goes, the derivative is not one).
          .filter((ex) => wrt.every((name) => valuesOf(ex.args[name]).every(Number.isFinite)));
        const problems: string[] = [];
        for (const ex of checked) {
          const r = rng(7);
          const out = await outputOfAsync(rt, op, ex.args);
          const upstream = out.values.map(() => Math.fround(2 * r.next() - 1));
          const got = await vjpValues(rt, op, ex.args, upstream, out.shape, ex.dtype);
          // The formula in float64, then in the example's dtype (a float32 past its range is infinite).
          const exact = formula(inFloat64(ex.args), upstream);
          const want = Object.fromEntries(
            Object.entries(exact).map(([k, v]) => [k, ex.dtype === 'float32' ? v.map(Math.fround) : v]),
          );
          for (const name of wrt)
            if (got[name] !== null)
              problems.push(closeness(got[name], want[name], TOLERANCE.formula[ex.dtype], `${ex.name}: ${name}_grad`));
        }
        expect(problems.filter(Boolean)).toEqual([]);
      });
    }
  });
}
