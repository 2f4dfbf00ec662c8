import { describe, expect, it } from 'vitest';
import { SparseTensor, createRuntime, tensor } from '@sparse/runtime';
import { createWasmBackend } from '../dist/index.js';
import type { SparseData } from '@sparse/kernel-abi';

// The runtime's index check runs in wasm for large index sets: it must accept exactly what the JS check accepts,
// and a rejected input must still get the JS backend's error, naming the bad entry.

const ROWS = 50_000;

/** The plain data the runtime hands the check: only indices and shape matter to it. */
const sd = (indices: Float64Array, shape: number[]): SparseData => ({
  kind: 'sparse',
  indices,
  values: new Float32Array(indices.length / shape.length),
  shape,
  dtype: 'float32',
});

function matrixIndices(): Float64Array {
  const idx = new Float64Array(2 * ROWS);
  for (let i = 0; i < ROWS; i++) {
    idx[2 * i] = i % 300;
    idx[2 * i + 1] = (i * 7) % 200;
  }
  return idx;
}

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

  it('the copy the check made is taken by the kernel right after it, and by no other call', async () => {
    const wasm = await createRuntime({ backend: 'wasm' });
    const js = await createRuntime({ backend: 'js' });
    const idx = matrixIndices();
    const st = new SparseTensor(
      idx,
      Float32Array.from({ length: ROWS }, (_, i) => (i % 13) - 6),
      [300, 200],
      'float32',
    );
    const b = tensor(
      Float32Array.from({ length: 200 * 3 }, (_, i) => i % 5),
      'float32',
      [200, 3],
    );
    const bT = tensor(
      Float32Array.from({ length: 300 * 3 }, (_, i) => i % 7),
      'float32',
      [300, 3],
    );
    const run = (rt: typeof js) => [
      Array.from(rt.run('sparse_tensor_dense_matmul', { sp_a: st, b }).output.data as Float32Array),
      Array.from(
        rt.run('sparse_tensor_dense_matmul', { sp_a: st, b: bT, adjoint_a: true }).output.data as Float32Array,
      ),
      Array.from(rt.run('sparse_reduce_sum', { sp_input: st, axis: [1] }).output.data as Float32Array),
      Array.from(
        rt.run('sparse_dense_cwise_mul', { sp_input: st, dense: tensor([2], 'float32') }).output.values as Float32Array,
      ),
      Array.from(
        rt.run('sparse_tensor_to_dense', { sp_input: st, validate_indices: false }).output.data as Float32Array,
      ),
    ];
    expect(run(wasm)).toEqual(run(js));
    // The same SparseTensor, its indices changed in place between calls: each call checks and copies afresh.
    for (let i = 0; i < ROWS; i++) idx[2 * i] = 299 - idx[2 * i];
    expect(run(wasm)).toEqual(run(js));
  });

  it("a large input with one bad entry gets the JS backend's error, naming it", async () => {
    const wasm = await createRuntime({ backend: 'wasm' });
    const js = await createRuntime({ backend: 'js' });
    const idx = matrixIndices();
    idx[2 * 4321 + 1] = 250;
    const st = new SparseTensor(idx, new Float32Array(ROWS), [300, 200], 'float32');
    const b = tensor(new Float32Array(200 * 3), 'float32', [200, 3]);
    const message = (rt: typeof js) => {
      try {
        rt.run('sparse_tensor_dense_matmul', { sp_a: st, b });
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`;
      }
      return 'no error';
    };
    expect(message(wasm)).toMatch(/InvalidArgumentError: .*indices\[4321\] = \[121,250\] is out of bounds/);
    expect(message(wasm)).toBe(message(js));
  });
});
