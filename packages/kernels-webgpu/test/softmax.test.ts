import { describe, expect, it } from 'vitest';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';
import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { REASONS } from '../src/index.js';

// sparse_softmax and its gradient on WebGPU (SwiftShader in CI), against the JS kernels.

type Outputs = Record<string, DenseData | SparseData>;

useBackend();

const gpu = (op: string, args: Args) => onGpu<Outputs>(op, args);

const js = (op: string, args: Args) => onJs<Outputs>(op, args);

/** The values of an output, and everything else about it that must be exact. */
const valuesOf = (o: DenseData | SparseData) => (o.kind === 'sparse' ? o.values : o.data) as Float32Array;
const exactPart = (o: DenseData | SparseData) =>
  o.kind === 'sparse'
    ? { kind: o.kind, indices: Array.from(o.indices), shape: o.shape, dtype: o.dtype, store: o.values.constructor }
    : { kind: o.kind, shape: o.shape, dtype: o.dtype, store: o.data.constructor };

/** Where float32 values differ beyond 1e-6 + 1e-5·|want| (nan equal to nan). */
function mismatch(got: DenseData | SparseData, want: DenseData | SparseData): string | undefined {
  const [g, w] = [valuesOf(got), valuesOf(want)];
  if (g.length !== w.length) return `length ${g.length} vs ${w.length}`;
  for (let i = 0; i < w.length; i++) {
    const ok =
      g[i] === w[i] ||
      (Number.isNaN(g[i]) && Number.isNaN(w[i])) ||
      Math.abs(g[i] - w[i]) <= 1e-6 + 1e-5 * Math.abs(w[i]);
    if (!ok) return `[${i}]: ${g[i]} vs ${w[i]}`;
  }
  return undefined;
}

function expectSame(got: Outputs, want: Outputs): void {
  expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
  for (const k of Object.keys(want)) {
    expect(exactPart(got[k])).toEqual(exactPart(want[k]));
    expect(mismatch(got[k], want[k]), k).toBeUndefined();
  }
}

/** Runs op on the GPU (which must not delegate) and on js; one submission unless there is nothing to compute. */
async function expectGpuMatchesJs(op: string, args: Args, submissions = 1): Promise<Outputs> {
  const before = backend.submissions();
  const { outputs, reason } = await gpu(op, args);
  expect(reason).toBeUndefined();
  expectSame(outputs, js(op, args));
  expect(backend.submissions() - before).toBe(submissions);
  return outputs;
}

async function expectDelegated(op: string, args: Args, reason: string): Promise<void> {
  const got = await gpu(op, args);
  expect(got.reason).toBe(reason);
  expectSame(got.outputs, js(op, args));
}

/** nnz distinct random entries of `shape` in canonical order, values uniform in [-spread, spread]. */
function randomSparse(r: Rng, shape: number[], nnz: number, spread = 5): SparseData {
  const size = shape.reduce((a, b) => a * b, 1);
  const offsets = new Set<number>();
  while (offsets.size < Math.min(nnz, size)) offsets.add(r.int(size));
  const list = [...offsets].sort((a, b) => a - b);
  const rank = shape.length;
  const indices = new Float64Array(list.length * rank);
  list.forEach((off, e) => {
    for (let a = rank - 1; a >= 0; a--) {
      indices[e * rank + a] = off % shape[a];
      off = Math.floor(off / shape[a]);
    }
  });
  const values = Float32Array.from(list, () => (r.next() * 2 - 1) * spread);
  return sparse(indices, values, shape, 'float32');
}

describe('sparse_softmax on webgpu', () => {
  // The wide spread keeps x - max above ln(4 · row length · 2^-126): no step is subnormal.
  for (const [shape, nnz, wide] of [
    [[50, 40], 900, 40],
    [[6, 7, 30], 700, 40],
    [[3, 5000], 6000, 35], // long rows
    [[2000, 3], 3000, 40], // many short rows
  ] as [number[], number, number][])
    it(`float32, shape [${shape}], ${nnz} entries`, async () => {
      const r = rng(shape[0] * 13 + nnz);
      await expectGpuMatchesJs('sparse_softmax', { sp_input: randomSparse(r, shape, nnz) });
      await expectGpuMatchesJs('sparse_softmax', { sp_input: randomSparse(r, shape, nnz, wide) });
    });

  it('hand-computed: the spec example, and a masked logit whose exp is 0 on both', async () => {
    const out = await expectGpuMatchesJs('sparse_softmax', {
      sp_input: sparse(
        [
          [0, 0],
          [0, 2],
          [0, 3],
          [1, 1],
          [1, 3],
        ],
        [1, 2, 3, -1, -1],
        [3, 5],
        'float32',
      ),
    });
    const v = Array.from(valuesOf(out.output));
    [0.09003057330846786, 0.2447284758090973, 0.6652409434318542, 0.5, 0.5].forEach((w, i) =>
      expect(Math.abs(v[i] - w)).toBeLessThan(1e-6),
    );
    const masked = await expectGpuMatchesJs('sparse_softmax', {
      sp_input: sparse(
        [
          [0, 0],
          [0, 1],
          [1, 0],
        ],
        [0, -200, 1000],
        [2, 2],
        'float32',
      ),
    });
    expect(Array.from(valuesOf(masked.output))).toEqual([1, 0, 1]);
  });

  it('float64 runs on the JS kernel; inf, nan and a subnormal step are screened', async () => {
    await expectDelegated(
      'sparse_softmax',
      {
        sp_input: sparse(
          [
            [0, 0],
            [0, 1],
          ],
          [1, 2],
          [1, 2],
          'float64',
        ),
      },
      REASONS.notComputed('float64'),
    );
    for (const bad of [Infinity, Number.NaN, 1e-40])
      await expectDelegated(
        'sparse_softmax',
        {
          sp_input: sparse(
            [
              [0, 0],
              [0, 1],
            ],
            [1, bad],
            [1, 2],
            'float32',
          ),
        },
        REASONS.nonFinite,
      );
    // exp(-95) is about 5.5e-42: subnormal in float32, which the GPU may flush.
    await expectDelegated(
      'sparse_softmax',
      {
        sp_input: sparse(
          [
            [0, 0],
            [0, 1],
          ],
          [0, -95],
          [1, 2],
          'float32',
        ),
      },
      REASONS.subnormal,
    );
  });

  it('empty', async () => {
    await expectGpuMatchesJs('sparse_softmax', { sp_input: sparse([], [], [2, 0, 3], 'float32') }, 0);
    await expectGpuMatchesJs('sparse_softmax', { sp_input: sparse([], [], [4, 3], 'float32') }, 0);
  });
});

describe('sparse_softmax_grad on webgpu', () => {
  for (const [shape, nnz] of [
    [[50, 40], 900],
    [[6, 7, 30], 700],
    [[3, 5000], 6000],
  ] as [number[], number][])
    it(`float32, shape [${shape}], ${nnz} entries`, async () => {
      const r = rng(shape[0] * 17 + nnz);
      const sp = randomSparse(r, shape, nnz, 3);
      const sp_output = js('sparse_softmax', { sp_input: sp }).output as SparseData;
      const grad = dense(
        Float32Array.from(sp_output.values, () => r.next() * 2 - 1),
        [nnz],
        'float32',
      );
      await expectGpuMatchesJs('sparse_softmax_grad', { sp_output, grad });
    });

  it('hand-computed: the spec example', async () => {
    const out = await expectGpuMatchesJs('sparse_softmax_grad', {
      sp_output: sparse(
        [
          [0, 0],
          [0, 1],
          [1, 0],
        ],
        [0.5, 0.5, 1],
        [2, 2],
        'float32',
      ),
      grad: dense([1, 0, 5], [3], 'float32'),
    });
    expect(Array.from(valuesOf(out.sp_input_grad))).toEqual([0.25, -0.25, 0]);
  });

  it('float64 runs on the JS kernel; inf, subnormal products and empty inputs', async () => {
    const sp = (v: number[], dtype: 'float32' | 'float64' = 'float32') =>
      sparse(
        [
          [0, 0],
          [0, 1],
        ],
        v,
        [1, 2],
        dtype,
      );
    await expectDelegated(
      'sparse_softmax_grad',
      { sp_output: sp([0.5, 0.5], 'float64'), grad: dense([1, 2], [2], 'float64') },
      REASONS.notComputed('float64'),
    );
    await expectDelegated(
      'sparse_softmax_grad',
      { sp_output: sp([0.5, 0.5]), grad: dense([1, Infinity], [2], 'float32') },
      REASONS.nonFinite,
    );
    // y of 1e-30 times grad of 1e-10 is below 2^-126.
    await expectDelegated(
      'sparse_softmax_grad',
      { sp_output: sp([1e-30, 1]), grad: dense([1e-10, 1], [2], 'float32') },
      REASONS.subnormal,
    );
    await expectGpuMatchesJs(
      'sparse_softmax_grad',
      { sp_output: sparse([], [], [2, 3], 'float32'), grad: dense([], [0], 'float32') },
      0,
    );
  });
});
