import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRuntime, registerBackend } from '@sparse/runtime';
import { createWasmBackend } from '@sparse/kernels-as';
import type { Case } from '@sparse/case-format';
import { parseCaseFile } from '../src/load-cases.js';
import { runCase } from '../src/run-case.js';
import { matrices, matrixOps, outcome } from './random-matrix-ops.js';

// A threaded wasm backend cuts each big pass between its threads. Here it cuts every call, however small (no
// minimum of work), between four threads, so that every spec example and random matrices meet the cuts at their
// edges (one row, empty parts, fewer rows than threads): each must pass as on one thread, with the same errors.

const bundlePath = fileURLToPath(new URL('../generated/cases.json', import.meta.url));
const cases: Case[] = parseCaseFile(readFileSync(bundlePath, 'utf8'), bundlePath);

registerBackend('wasm-threads', () => createWasmBackend(undefined, { threads: 4, parallelMinWork: 0, warmUp: false }));

describe('every spec example on wasm with four threads cutting every call', async () => {
  const wasm = await createRuntime({ backend: 'wasm-threads' });

  for (const c of cases) {
    it(`${c.op}/${c.name}`, async () => {
      const r = await runCase(wasm, c);
      expect(['passed', 'delegated'], `${r.status}: ${r.message}`).toContain(r.status);
    });
  }
});

describe('random matrices on wasm with four threads cutting every call, against js', async () => {
  const wasm = await createRuntime({ backend: 'wasm-threads' });
  const js = await createRuntime({ backend: 'js' });

  for (const [name, op] of matrixOps) {
    it(name, () => {
      fc.assert(
        fc.property(matrices, matrices, (a, b) => {
          expect(outcome(() => op(wasm, a, b))).toEqual(outcome(() => op(js, a, b)));
        }),
        { numRuns: 60, seed: 16 },
      );
    });
  }
});

describe('the runtime option', () => {
  it('makes a threaded wasm runtime, and is refused for backends without threads', async () => {
    const rt = await createRuntime({ backend: 'wasm', threads: 2 });
    expect(rt.backend).toBe('wasm');
    expect(rt.threads).toBe(2);
    expect((await createRuntime({ backend: 'wasm' })).threads).toBe(1);
    await expect(createRuntime({ threads: 2 })).rejects.toThrow('threads is an option of the wasm backend, not of js');
    await expect(createRuntime({ backend: 'wasm', threads: 0 })).rejects.toThrow('threads must be a whole number');
    await expect(createRuntime({ backend: 'wasm', threads: '2' as never })).rejects.toThrow(TypeError);
  });
});
