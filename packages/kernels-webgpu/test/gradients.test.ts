import { describe, expect, it } from 'vitest';
import type { DenseData } from '@sparse/kernel-abi';
import { onGpu, onJs, useBackend, type Args } from './backend.js';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { REASONS } from '../src/delegation.js';
import { WEBGPU_GRADIENTS, type WebGpuGradientSource } from '../src/generated/gradients.js';

// The derived gradients of the map and cwise ops on WebGPU (merge and reduce: merge-reduce-gradients.test.ts) (SwiftShader in CI), against the JS kernels on seeded
// random inputs: each runs on the GPU in float32, and the dense operand's gradient sums repeated and broadcast
// entries as the JS kernel does.

type Outputs = Record<string, DenseData>;

useBackend();

const runJs = (op: string, args: Args) => onJs<Outputs>(op, args);
const runGpu = async (op: string, args: Args) => {
  const { outputs, reason } = await onGpu<Outputs>(op, args);
  return { outputs, delegated: reason };
};

/** Values in [lo, hi), away from 0: inside every map's domain (asin, atanh need |x| < 1; sqrt's gradient x > 0). */
const draw = (r: Rng, n: number, lo = 0.2, hi = 0.8) => Array.from({ length: n }, () => lo + (hi - lo) * r.next());

/**
 * A call of a gradient op: a 6 × 5 sparse operand with `n` entries (repeats and any order: the dense operand's
 * gradient adds repeated entries), `grad` of its values, and for a cwise op a dense operand of `denseShape`.
 */
function callOf(op: string, r: Rng, n: number, denseShape: number[], dtype: 'float32' | 'float64' = 'float32'): Args {
  const src = WEBGPU_GRADIENTS[op] as WebGpuGradientSource;
  const indices = Array.from({ length: n }, () => [r.int(6), r.int(5)]);
  const args: Args = { [src.roles.sparse!]: sparse(indices, draw(r, n), [6, 5], dtype) };
  if (src.roles.dense) {
    const size = denseShape.reduce((a, b) => a * b, 1);
    args[src.roles.dense] = dense(draw(r, size, 0.5, 2), denseShape, dtype);
  }
  args.grad = dense(draw(r, n, -1, 1), [n], dtype);
  return args;
}

function expectClose(got: DenseData, want: DenseData, what: string): void {
  expect([got.dtype, got.shape], what).toEqual([want.dtype, want.shape]);
  const [g, w] = [got.data as Float32Array, want.data as Float32Array];
  expect(g.length, what).toBe(w.length);
  for (let i = 0; i < w.length; i++)
    expect(Math.abs(g[i] - w[i]), `${what}[${i}]: ${g[i]} vs ${w[i]}`).toBeLessThanOrEqual(
      1e-6 + 1e-5 * Math.abs(w[i]),
    );
}

describe('derived gradients on WebGPU', () => {
  it('are generated for every map and cwise op with a float gradient', () => {
    const ops = Object.keys(WEBGPU_GRADIENTS);
    expect(ops).toContain('sparse_square_grad');
    expect(ops).toContain('sparse_dense_cwise_mul_grad');
    expect(ops.every((op) => op.endsWith('_grad'))).toBe(true);
  });

  for (const [op, src] of Object.entries(WEBGPU_GRADIENTS)) {
    if (src.family !== 'map' && src.family !== 'cwise') continue;
    it(`${op}: float32 on the GPU, as the JS kernel computes it`, async () => {
      const r = rng(op.length * 7919);
      // Broadcast shapes for a cwise op's dense operand: the full shape, a row, a column.
      const shapes = src.roles.dense ? [[6, 5], [5], [6, 1]] : [[]];
      for (const shape of shapes)
        for (const n of [0, 1, 40]) {
          const args = callOf(op, r, n, shape);
          const got = await runGpu(op, args);
          expect(got.delegated, `${op} n=${n} dense ${shape}`).toBeUndefined();
          const want = runJs(op, args);
          for (const name of Object.keys(want)) expectClose(got.outputs[name], want[name], `${op} ${name}`);
        }
    });
  }

  it('float64 runs on the JS kernels, saying so', async () => {
    const args = callOf('sparse_square_grad', rng(1), 10, [], 'float64');
    const got = await runGpu('sparse_square_grad', args);
    expect(got.delegated).toBe(REASONS.notComputed('float64'));
    expect(Array.from(got.outputs.sp_input_grad.data)).toEqual(
      Array.from(runJs('sparse_square_grad', args).sp_input_grad.data),
    );
  });

  it('a call whose products could be subnormal runs on the JS kernels, which keep them', async () => {
    const args = callOf('sparse_dense_cwise_mul_grad', rng(2), 10, [6, 5]);
    (args.grad as DenseData).data = Float32Array.from({ length: 10 }, () => 2e-38);
    const got = await runGpu('sparse_dense_cwise_mul_grad', args);
    expect(got.delegated).toBe(REASONS.subnormal);
    const want = runJs('sparse_dense_cwise_mul_grad', args);
    expect(Array.from(got.outputs.dense_grad.data)).toEqual(Array.from(want.dense_grad.data));
  });

  it('a repeated entry adds its part into the dense gradient once per entry', async () => {
    const args: Args = {
      sp_input: sparse(
        [
          [0, 1],
          [0, 1],
          [2, 3],
        ],
        [0.5, 0.25, 2],
        [3, 4],
        'float32',
      ),
      dense: dense([1, 2, 3, 4], [4], 'float32'),
      grad: dense([1, 1, 1], [3], 'float32'),
    };
    const got = await runGpu('sparse_dense_cwise_mul_grad', args);
    expect(got.delegated).toBeUndefined();
    // d(a·b)/db = a, summed over the entries at each column of the broadcast row: column 1 gets 0.5 + 0.25.
    expect(Array.from(got.outputs.dense_grad.data)).toEqual([0, 0.75, 0, 2]);
    expect(Array.from(got.outputs.sp_input_grad.data)).toEqual([2, 2, 4]);
  });
});
