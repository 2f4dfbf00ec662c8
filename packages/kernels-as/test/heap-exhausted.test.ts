import { describe, expect, it } from 'vitest';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { createWasmBackend } from '../dist/index.js';
import { runJs, runWasm } from './against-js.js';

// A call that needs more wasm memory than the kernels may have runs on the JS kernels, declared; it never ends
// in a failed Memory.grow. The limit is lowered here so that the test needs no gigabytes.
describe('a wasm heap too small for the call', async () => {
  const backend = await createWasmBackend(undefined, { maxHeapBytes: 2 ** 20 });

  it('runs the call on the JS kernels, says why, and the next small call is wasm again', () => {
    const n = 2 ** 19; // a 2 MiB float32 dense operand: past the 1 MiB heap
    const args = {
      sp_a: sparse([[0, 0]], [2], [1, n], 'float32'),
      b: dense(new Float32Array(n).fill(1.5), [n, 1], 'float32'),
      adjoint_a: false,
      adjoint_b: false,
    };
    const big = runWasm(backend, 'sparse_tensor_dense_matmul', args);
    expect(big.delegated).toMatch(/needs \d+ bytes of wasm memory, more than the 1048576 its kernels may use/);
    expect(big.outputs).toEqual(runJs('sparse_tensor_dense_matmul', args));

    const small = {
      ...args,
      sp_a: sparse([[0, 0]], [2], [1, 4], 'float32'),
      b: dense(new Float32Array(4).fill(1.5), [4, 1], 'float32'),
    };
    const r = runWasm(backend, 'sparse_tensor_dense_matmul', small);
    expect(r.delegated).toBeUndefined();
    expect(Array.from((r.outputs.output as { data: Float32Array }).data)).toEqual([3]);
  });
});
