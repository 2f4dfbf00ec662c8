import { describe, expect, it } from 'vitest';
import { createWasmBackend } from '../dist/index.js';
import type { SparseData } from '@sparse/kernel-abi';
import { matrixIndices as matrixIndicesOf } from '@sparse/test-kit/plain-data';

// The runtime's index check runs in wasm for large index sets: it must accept exactly what the JS check accepts.
// Through the runtime (the staged copy the kernel takes, the error naming a bad entry): see
// packages/conformance/test/wasm-runtime.test.ts.

const ROWS = 50_000;

/** The plain data the runtime hands the check: only indices and shape matter to it. */
const sd = (indices: Float64Array, shape: number[]): SparseData => ({
  kind: 'sparse',
  indices,
  values: new Float32Array(indices.length / shape.length),
  shape,
  dtype: 'float32',
});

const matrixIndices = () => matrixIndicesOf(ROWS);

describe('the index check in wasm', async () => {
  const backend = await createWasmBackend();

  it('accepts valid indices of rank 1, 2 and 3, and rejects each kind of bad entry anywhere', () => {
    const idx = matrixIndices();
    expect(backend.indicesValid(sd(idx, [300, 200]))).toBe(true);
    expect(backend.indicesValid(sd(idx, [300, 199]))).toBe(false);
    // 2^32 + 5 and 5 − 2^32 end in the bits of 5: a check that only looked at the narrowed i32 would pass them.
    for (const bad of [-1, 300, 0.5, NaN, Infinity, -Infinity, 1e300, 2 ** 31, -(2 ** 31), 2 ** 32 + 5, 5 - 2 ** 32]) {
      for (const at of [0, 1, 2 * ROWS - 2, 2 * ROWS - 1, 777]) {
        const copy = idx.slice();
        copy[at] = bad;
        expect(backend.indicesValid(sd(copy, [300, 300])), `${bad} at ${at}`).toBe(false);
      }
    }
    const flat = Float64Array.from({ length: 40_001 }, (_, i) => i % 10);
    expect(backend.indicesValid(sd(flat, [10]))).toBe(true);
    flat[40_000] = 10;
    expect(backend.indicesValid(sd(flat, [10]))).toBe(false);
    const cube = Float64Array.from({ length: 3 * 20_000 }, (_, i) => i % 3);
    expect(backend.indicesValid(sd(cube, [1, 2, 3]))).toBe(true);
    expect(backend.indicesValid(sd(cube, [1, 2, 2]))).toBe(false);
    expect(backend.indicesValid(sd(cube, [1, 1, 3]))).toBe(false);
    const negativeZero = idx.slice();
    negativeZero[3] = -0;
    expect(backend.indicesValid(sd(negativeZero, [300, 200]))).toBe(true);
  });

  it('leaves small index sets and dims past i32 to the JS check', () => {
    expect(backend.indicesValid(sd(new Float64Array([0, 1]), [1, 2]))).toBe(false);
    expect(backend.indicesValid(sd(matrixIndices(), [2 ** 40, 300]))).toBe(false);
  });
});
