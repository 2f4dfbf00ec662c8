import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { listBackends } from '@sparse/runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Case } from '../src/case.js';
import { parseCaseFile } from '../src/load-cases.js';
import { openRuntime } from '../src/open-runtime.js';
import { runCase, type CaseRuntime } from '../src/run-case.js';

// The spec examples, bundled by @sparse/codegen; parsing validates them against CASES.md first.
const bundlePath = fileURLToPath(new URL('../generated/cases.json', import.meta.url));
const cases: Case[] = parseCaseFile(readFileSync(bundlePath, 'utf8'), bundlePath);

/** The reference backend supports every op and dtype, so for it `unsupported` is a failure too. */
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
      it(`${c.op}/${c.name}`, async (ctx) => {
        const reference = backend === REFERENCE_BACKEND;
        if (!runtime) {
          if (reference) expect.fail(unavailable);
          return ctx.skip(unavailable);
        }
        const r = await runCase(runtime, c);
        // Another backend may lack an op (shown as skipped) or hand it to another backend explicitly (delegated).
        if (!reference && r.status === 'unsupported') return ctx.skip(r.message);
        if (!reference && r.status === 'delegated') return;
        expect(r.status, `${r.status}: ${r.message}`).toBe('passed');
      });
    }
  });
}
