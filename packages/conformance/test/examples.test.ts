import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { listBackends } from '@sparse/runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Case } from '@sparse/case-format';
import { parseCaseFile } from '../src/load-cases.js';
import { openRuntime } from '../src/open-runtime.js';
import { runCase, type CaseRuntime } from '../src/run-case.js';

// The spec examples, bundled by @sparse/codegen; parsing validates them against the case format first.
const bundlePath = fileURLToPath(new URL('../generated/cases.json', import.meta.url));
const cases: Case[] = parseCaseFile(readFileSync(bundlePath, 'utf8'), bundlePath);

/** The reference backend computes every case itself; another may hand a case to it, declared (`delegated`). */
const REFERENCE_BACKEND = 'js';

it('the generated suite has cases', () => {
  expect(cases.length).toBeGreaterThan(0);
});

for (const backend of listBackends()) {
  describe(backend, () => {
    let runtime: CaseRuntime | undefined;
    let unavailable = '';
    beforeAll(async () => {
      const opened = await openRuntime(backend);
      if ('runtime' in opened) runtime = opened.runtime;
      else unavailable = opened.reason;
    });

    for (const c of cases) {
      it(`${c.op}/${c.name}`, async () => {
        // Every registered backend must load and run every op: in its own kernels, or declared as delegated.
        if (!runtime) expect.fail(unavailable);
        const r = await runCase(runtime!, c);
        const allowed = backend === REFERENCE_BACKEND ? ['passed'] : ['passed', 'delegated'];
        expect(allowed, `${r.status}: ${r.message}`).toContain(r.status);
      });
    }
  });
}
