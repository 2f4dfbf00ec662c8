import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRuntime, registerBackend } from '@sparse/runtime';
import { createWasmBackend } from '@sparse/kernels-as';
import type { Case } from '@sparse/case-format';
import { parseCaseFile } from '../src/load-cases.js';
import { runCase, type CaseRuntime } from '../src/run-case.js';
import { toRuntimeArgs } from '../src/runtime-args.js';
import { matrices, matrixOps, outcome } from './random-matrix-ops.js';

// The wasm backend keeps the tensors it is given prepared in its memory between calls (indices, values, a matrix's
// row pointers), by default only large ones; here it keeps every one, so that each spec example runs a second time
// on what the first run prepared, and must pass both times. A cache never changes a result, nor an error.

const bundlePath = fileURLToPath(new URL('../generated/cases.json', import.meta.url));
const cases: Case[] = parseCaseFile(readFileSync(bundlePath, 'utf8'), bundlePath);

registerBackend('wasm-prepared', () => createWasmBackend(undefined, { residentMinBytes: 0, warmUp: false }));

describe('every spec example, twice on the same tensors, on wasm keeping every operand prepared', async () => {
  const wasm = await createRuntime({ backend: 'wasm-prepared' });

  for (const c of cases) {
    it(`${c.op}/${c.name}`, async () => {
      let args: Record<string, unknown>;
      try {
        args = toRuntimeArgs(c.args);
      } catch {
        return; // refused while making the tensors: nothing reaches a backend (examples.test.ts runs these)
      }
      // runCase converts the case's arguments itself; this runtime runs the op on the same tensors each time.
      const sameTensors: CaseRuntime = {
        backend: wasm.backend,
        hasOp: (op) => wasm.hasOp(op),
        run: (op) => wasm.run(op, args),
        runWithReportAsync: (op) => wasm.runWithReportAsync(op, args),
      };
      for (const time of ['first', 'second']) {
        const r = await runCase(sameTensors, c);
        expect(['passed', 'delegated'], `${time} run, ${r.status}: ${r.message}`).toContain(r.status);
      }
    });
  }

  it('kept operands prepared while it ran them', () => {
    expect(wasm.memory().residentBytes).toBeGreaterThan(0);
  });
});

describe('random matrices, twice on the same tensors, wasm keeping them prepared against js', async () => {
  const wasm = await createRuntime({ backend: 'wasm-prepared' });
  const js = await createRuntime({ backend: 'js' });

  for (const [name, op] of matrixOps) {
    it(name, () => {
      fc.assert(
        fc.property(matrices, matrices, (a, b) => {
          const want = outcome(() => op(js, a, b));
          expect(outcome(() => op(wasm, a, b))).toEqual(want);
          expect(outcome(() => op(wasm, a, b))).toEqual(want);
        }),
        { numRuns: 60, seed: 16 },
      );
    });
  }
});
