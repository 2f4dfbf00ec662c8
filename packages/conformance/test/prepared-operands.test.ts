import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRuntime, registerBackend, SparseTensor, tensor } from '@sparse/runtime';
import { createWasmBackend } from '@sparse/kernels-as';
import type { Case } from '@sparse/case-format';
import { parseCaseFile } from '../src/load-cases.js';
import { runCase, type CaseRuntime } from '../src/run-case.js';
import { toRuntimeArgs } from '../src/runtime-args.js';

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
        runWithReport: (op) => wasm.runWithReport(op, args),
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

  /** rows × cols float32 matrices, in row-major order or not, with or without repeated indices. */
  const matrices = fc
    .record({
      rows: fc.integer({ min: 1, max: 12 }),
      cols: fc.integer({ min: 1, max: 12 }),
      cells: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: -8, max: 8 })), { maxLength: 40 }),
      order: fc.constantFrom('canonical', 'rows', 'any'),
    })
    .map(({ rows, cols, cells, order }) => {
      let entries = cells.map(([r, c, v]) => [r % rows, c % cols, v] as const);
      const key = (e: readonly number[]) => e[0] * cols + e[1];
      if (order === 'canonical') {
        const seen = new Map(entries.map((e) => [key(e), e]));
        entries = [...seen.values()].sort((a, b) => key(a) - key(b));
      } else if (order === 'rows') {
        entries = [...entries].sort((a, b) => a[0] - b[0]);
      }
      return new SparseTensor(
        entries.map((e) => [e[0], e[1]]),
        Float32Array.from(entries, (e) => e[2] / 4),
        [rows, cols],
        'float32',
      );
    });

  const outcome = (call: () => unknown): unknown => {
    try {
      const out = call() as { toJSON?: () => unknown; toArray?: () => unknown };
      return out.toJSON ? out.toJSON() : out.toArray!();
    } catch (e) {
      return `${(e as Error).name}: ${(e as Error).message}`;
    }
  };

  const ops: [string, (rt: typeof js, a: SparseTensor, b: SparseTensor) => unknown][] = [
    ['reduceSum axis 1', (rt, a) => rt.sparse.reduceSum(a, { axis: 1 })],
    ['reduceMax all', (rt, a) => rt.sparse.reduceMax(a)],
    ['transpose', (rt, a) => rt.sparse.transpose(a)],
    ['concat axis 1', (rt, a, b) => rt.sparse.concat(1, [a, b], { expandNonconcatDim: true })],
    ['concat axis 0', (rt, a, b) => rt.sparse.concat(0, [b, a], { expandNonconcatDim: true })],
    ['add', (rt, a) => rt.sparse.add(a, a.withValues(new Float32Array(a.nnz).fill(1)))],
    ['reorder', (rt, a) => rt.sparse.reorder(a)],
    ['toDense', (rt, a) => rt.sparse.tensorToDense(a, { validateIndices: false })],
    [
      'tensorDenseMatmul',
      (rt, a) =>
        rt.sparse.tensorDenseMatmul(
          a,
          tensor(
            Float32Array.from({ length: a.denseShape[1] * 3 }, (_, i) => i - 4),
            'float32',
            [a.denseShape[1], 3],
          ),
        ),
    ],
  ];

  for (const [name, op] of ops) {
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
