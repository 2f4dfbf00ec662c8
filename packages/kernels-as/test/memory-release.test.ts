import { describe, expect, it } from 'vitest';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { createWasmBackend } from '../dist/index.js';
import { runJs, runWasm } from './against-js.js';

// Wasm memory cannot shrink: after a call that left it large, the backend moves to a fresh instance, so one big
// product does not pin its memory for the life of the page.
describe('wasm memory after a big call', async () => {
  const backend = await createWasmBackend();
  // What a fresh instance starts with (a new backend also maps some memory for its warm-up: see warm-up.ts).
  const start = (await createWasmBackend(undefined, { warmUp: false })).memoryBytes();
  const matmul = (n: number) => ({
    sp_a: sparse([[0, 0]], [2], [1, n], 'float32'),
    b: dense(new Float32Array(n).fill(1.5), [n, 1], 'float32'),
    adjoint_a: false,
    adjoint_b: false,
  });

  it('is given back by itself between calls, and the backend computes as before', async () => {
    const big = matmul(2 ** 24); // a 64 MiB dense operand in wasm memory
    expect(runWasm(backend, 'sparse_tensor_dense_matmul', big).delegated).toBeUndefined();
    expect(backend.memoryBytes()).toBeGreaterThan(64 * 2 ** 20);
    await backend.releaseMemory(); // the release the call started, or a new one: either ends with a fresh instance
    expect(backend.memoryBytes()).toBe(start);
    const small = matmul(8);
    const r = runWasm(backend, 'sparse_tensor_dense_matmul', small);
    expect(r.delegated).toBeUndefined();
    expect(r.outputs).toEqual(runJs('sparse_tensor_dense_matmul', small));
  });

  it('is kept after a small call (it is reused)', () => {
    runWasm(backend, 'sparse_tensor_dense_matmul', matmul(2 ** 16));
    expect(backend.memoryBytes()).toBeGreaterThan(start);
  });
});
