import { describe, expect, it } from 'vitest';
import { CsrMatrix, SparseTensor, createRuntime, registerBackend, tensor, type Runtime } from '@sparse/runtime';
import { createWasmBackend, type WasmBackend } from '@sparse/kernels-as';
import { rng } from '@sparse/test-kit/seeded-random';

// rt.prepare on the wasm backend: what a tensor's first call would copy into wasm memory is there before it, so the
// first call copies nothing in, and its results are those of an unprepared run.

/** A wasm runtime that keeps every operand prepared (not only large ones), and its backend for its counters. */
async function wasmRuntime(name: string, maxBytes?: number): Promise<{ rt: Runtime; backend: WasmBackend }> {
  let backend: WasmBackend | undefined;
  registerBackend(name, async () => (backend = await createWasmBackend(undefined, { residentMinBytes: 0 })));
  const rt = await createRuntime({ backend: name, ...(maxBytes === undefined ? {} : { maxBytes }) });
  return { rt, backend: backend! };
}

/** A seeded rows × cols float32 matrix in canonical order, about `perRow` entries a row. */
function matrix(rows: number, cols: number, perRow: number, seed: number): SparseTensor {
  const r = rng(seed);
  const indices: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < rows; i++) {
    const row = new Set<number>();
    for (let k = 0; k < perRow; k++) row.add(r.int(cols));
    for (const c of [...row].sort((a, b) => a - b)) {
      indices.push(i, c);
      values.push(Math.round(r.next() * 40 - 20) / 8);
    }
  }
  return new SparseTensor(Float64Array.from(indices), Float32Array.from(values), [rows, cols], 'float32');
}

const calls = (rt: Runtime, a: SparseTensor, b: SparseTensor, d: ReturnType<typeof tensor>, csr: CsrMatrix) => [
  rt.sparse.reduceSum(a, { axis: 1 }).toArray(),
  rt.sparse.tensorDenseMatmul(a, d).toArray(),
  rt.sparse.add(a, b).toJSON(),
  rt.sparse.transpose(b).toJSON(),
  rt.sparse.matrixSparseMatMul(csr, CsrMatrix.fromSparseTensor(rt.sparse.transpose(a))).toJSON(),
];

describe('Runtime.prepare on wasm', () => {
  const a = matrix(300, 200, 6, 1);
  const b = matrix(300, 200, 6, 2);
  const d = tensor(
    Float32Array.from({ length: 200 * 8 }, (_, i) => ((i * 7) % 13) - 6),
    'float32',
    [200, 8],
  );
  const csr = CsrMatrix.fromSparseTensor(b);

  it('copies every operand in before the first call, which then copies none of them', async () => {
    const { rt, backend } = await wasmRuntime('wasm-prepare');
    const before = backend.residentStats().uploads;
    rt.prepare(a, b, d, csr);
    const uploads = backend.residentStats().uploads;
    // Indices and values of each sparse tensor, the dense data, the CSR matrix's four arrays.
    expect(uploads - before).toBe(2 + 2 + 1 + 4);
    expect(rt.memory().residentBytes).toBeGreaterThan(0);
    rt.sparse.reduceSum(a, { axis: 1 });
    rt.sparse.tensorDenseMatmul(a, d);
    rt.sparse.add(a, b);
    expect(backend.residentStats().uploads).toBe(uploads);
  });

  it('gives the results of an unprepared run, and of the JS kernels', async () => {
    const { rt } = await wasmRuntime('wasm-prepare-results');
    const fresh = await wasmRuntime('wasm-unprepared');
    const js = await createRuntime({ backend: 'js' });
    rt.prepare(a, b, d, csr);
    const got = calls(rt, a, b, d, csr);
    expect(got).toEqual(calls(fresh.rt, a, b, d, csr));
    expect(got).toEqual(calls(js, a, b, d, csr));
  });

  it('lets a prepared tensor go when it is disposed, and everything at rt.dispose()', async () => {
    const { rt } = await wasmRuntime('wasm-prepare-dispose');
    const mine = matrix(300, 200, 6, 3);
    rt.prepare(a, mine);
    const both = rt.memory().residentBytes;
    mine.dispose();
    const one = rt.memory().residentBytes;
    expect(one).toBeGreaterThan(0);
    expect(one).toBeLessThan(both);
    await rt.dispose();
    expect(rt.memory().residentBytes).toBe(0);
    // Still usable: a later call prepares again what it needs.
    const js = await createRuntime({ backend: 'js' });
    expect(rt.sparse.reduceSum(a, { axis: 1 }).toArray()).toEqual(js.sparse.reduceSum(a, { axis: 1 }).toArray());
  });

  it('keeps within the byte budget, and never throws for want of room', async () => {
    const maxBytes = 20_000;
    const { rt } = await wasmRuntime('wasm-prepare-small', maxBytes);
    expect(() => rt.prepare(a, b, d, csr)).not.toThrow();
    expect(rt.memory().residentBytes).toBeLessThanOrEqual(maxBytes);
  });
});
