import fc from 'fast-check';
import { describe, it } from 'vitest';
import { createRuntime, listBackends } from '@sparse/runtime';
import { runCase } from '../src/index.js';
import { FAMILY_PROPERTIES } from './properties/family-properties.js';
import { RESHAPING_PROPERTIES } from './properties/reshaping-properties.js';
import { MOVING_PROPERTIES } from './properties/moving-properties.js';
import { MATH_PROPERTIES } from './properties/math-properties.js';

const PROPERTIES = [...FAMILY_PROPERTIES, ...RESHAPING_PROPERTIES, ...MOVING_PROPERTIES, ...MATH_PROPERTIES];

// Bounded in runs, not in time: the same number of random cases on every machine.
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

for (const backend of listBackends()) {
  describe(`properties against a dense oracle on ${backend}`, () => {
    for (const p of PROPERTIES) {
      it(p.op, async () => {
        const rt = await createRuntime({ backend });
        await fc.assert(
          fc.asyncProperty(p.cases, async (c) => {
            const r = await runCase(rt, c);
            // A declared delegation to the reference backend is right but not this backend's own result.
            const ok = r.status === 'passed' || (backend !== 'js' && r.status === 'delegated');
            if (!ok) throw new Error(`${r.status}: ${r.message}\ncase: ${JSON.stringify(c)}`);
          }),
          { numRuns: RUNS },
        );
      });
    }
  });
}
