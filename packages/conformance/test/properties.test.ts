import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRuntime, listBackends, listOps } from '@sparse/runtime';
import { HAND_ORACLES } from './properties/hand-oracles.js';
import { propertyOf } from './properties/property-of.js';
import { SPECS } from './properties/spec-ops.js';

// Every op of the specs, each by the property its spec gives it (properties/property-of.ts): a new spec op is
// tested here without editing anything.

// Bounded in runs, not in time: the same number of random cases on every machine.
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

const PROPERTIES = SPECS.map(propertyOf);
/** The kernel families written by hand; every other family's kernel is made from the spec's expressions. */
const HAND_WRITTEN = ['structural', 'matmul'];
/** Gradient ops derived from the expressions: held to finite differences and their formulas (gradients.test.ts). */
const DERIVED_GRADIENTS = ['gradient'];

describe('every spec op has a property', () => {
  it('the runtime under test has exactly the spec ops (so fuzz.test.ts, which runs listOps(), fuzzes each)', () => {
    expect(listOps().sort()).toEqual(SPECS.map((s) => s.name).sort());
  });

  it('an expression-family op is checked against a dense oracle made from its expressions', () => {
    const weaker = SPECS.filter((s) => ![...HAND_WRITTEN, ...DERIVED_GRADIENTS].includes(s.kernel.family))
      .filter((s) => propertyOf(s).against !== 'a dense oracle')
      .map((s) => s.name);
    expect(weaker).toEqual([]);
  });

  it('each hand-written oracle is of a hand-written op of the specs', () => {
    const family = new Map(SPECS.map((s) => [s.name, s.kernel.family]));
    const stray = [...HAND_ORACLES.keys()].filter((op) => !HAND_WRITTEN.includes(family.get(op) ?? ''));
    expect(stray).toEqual([]);
  });
});

for (const backend of listBackends()) {
  describe(`properties on ${backend}`, () => {
    for (const p of PROPERTIES) {
      it(`${p.op} against ${p.against}`, async () => {
        const rt = await createRuntime({ backend });
        await fc.assert(
          fc.asyncProperty(p.cases, async (c) => {
            const problem = await p.check(rt, c);
            if (problem) throw new Error(`${problem}\ncase: ${JSON.stringify(c)}`);
          }),
          { numRuns: RUNS },
        );
      });
    }
  });
}
