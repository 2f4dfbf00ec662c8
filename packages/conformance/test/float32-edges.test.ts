import fc from 'fast-check';
import { describe, it } from 'vitest';
import { createRuntime, listBackends } from '@sparse/runtime';
import { compareOutput, resultView, type Case, type CaseRuntime, type Tolerance } from '../src/index.js';
import { float32EdgeCaseArb } from './properties/float32-edge-cases.js';
import { outcome, told } from './properties/run-outcome.js';
import { SPECS } from './properties/spec-ops.js';

// Every op on float32 values at the edges (properties/float32-edge-cases.ts), on every backend, against js: wasm
// computes float32 as js does, so exactly; a result the GPU delegated came from the JS kernels, so exactly too; the
// GPU's own results within its precision rule (README: float32 may differ in the last bits), 1e-5 relative with no
// absolute slack, so that a subnormal flushed to zero (or a small result it changed) fails.

const RUNS = Number(process.env.PROPERTY_RUNS ?? 100);

const EXACT: Tolerance = { rtol: 0, atol: 0 };
const GPU_PRECISION: Tolerance = { rtol: 1e-5, atol: 0 };

let reference: Promise<CaseRuntime> | undefined;

/** '' if `rt` computes what js computes on the case (to `own`, the tolerance of its own results), else how not. */
async function agreesWithJs(rt: CaseRuntime, c: Case, own: Tolerance): Promise<string> {
  reference ??= createRuntime({ backend: 'js' });
  const want = await outcome(await reference, c);
  const got = await outcome(rt, c);
  if ('threw' in got) return `threw ${got.threw}`;
  if ('threw' in want) return `js threw ${want.threw}`;
  if ('refused' in want || 'refused' in got) {
    const same = 'refused' in want && 'refused' in got && want.refused === got.refused;
    return same ? '' : `js ${told(want)}, ${rt.backend} ${told(got)}`;
  }
  const tolerance = got.delegated ? EXACT : own;
  return Object.entries(want.outputs)
    .map(([name, w]) => {
      const view = resultView(w);
      if ('unrecognized' in view) return `js's ${name} is ${view.unrecognized}`;
      return compareOutput(got.outputs[name], view, name, tolerance);
    })
    .filter(Boolean)
    .join('; ');
}

const EDGE_PROPERTIES = SPECS.map((s) => ({ op: s.name, cases: float32EdgeCaseArb(s) })).filter((p) => p.cases);

for (const backend of listBackends().filter((b) => b !== 'js')) {
  describe(`float32 edge values on ${backend} agree with js`, () => {
    for (const p of EDGE_PROPERTIES) {
      it(p.op, async () => {
        const rt = await createRuntime({ backend });
        const own = backend === 'gpu' || backend === 'webgpu' ? GPU_PRECISION : EXACT;
        await fc.assert(
          fc.asyncProperty(p.cases!, async (c) => {
            const problem = await agreesWithJs(rt, c, own);
            if (problem) throw new Error(`${problem}\ncase: ${JSON.stringify(c)}`);
          }),
          { numRuns: RUNS },
        );
      });
    }
  });
}
