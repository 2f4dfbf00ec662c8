import { describe, expect, it } from 'vitest';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';
import type { DenseData, DType } from '@sparse/kernel-abi';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { dense } from '@sparse/test-kit/plain-data';
import { REASONS } from '../src/index.js';

// sparse_segment_{sum,mean,sqrt_n} and their gradients on WebGPU (SwiftShader in CI), against the JS kernels.

type Outputs = Record<string, DenseData>;

useBackend();

const gpu = (op: string, args: Args) => onGpu<Outputs>(op, args);

const js = (op: string, args: Args) => onJs<Outputs>(op, args);

/** Where `got` differs from `want`: exact for int32, 1e-6 + 1e-5·|want| for float32; undefined where it does not. */
function mismatch(got: DenseData, want: DenseData): string | undefined {
  if (got.dtype !== want.dtype) return `dtype ${got.dtype} vs ${want.dtype}`;
  if (got.shape.join() !== want.shape.join()) return `shape [${got.shape}] vs [${want.shape}]`;
  if (got.data.constructor !== want.data.constructor) return `store ${got.data.constructor.name}`;
  const [g, w] = [got.data as Float32Array, want.data as Float32Array];
  if (g.length !== w.length) return `length ${g.length} vs ${w.length}`;
  for (let i = 0; i < w.length; i++) {
    const ok =
      g[i] === w[i] ||
      (Number.isNaN(g[i]) && Number.isNaN(w[i])) ||
      (got.dtype !== 'int32' && Math.abs(g[i] - w[i]) <= 1e-6 + 1e-5 * Math.abs(w[i]));
    if (!ok) return `[${i}]: ${g[i]} vs ${w[i]}`;
  }
  return undefined;
}

/** Runs op on the GPU (which must not delegate) and on js; one submission unless the result needs no GPU. */
async function expectGpuMatchesJs(op: string, args: Args, submissions = 1): Promise<DenseData> {
  const before = backend.submissions();
  const { outputs, reason } = await gpu(op, args);
  expect(reason).toBeUndefined();
  const want = js(op, args);
  expect(mismatch(outputs.output, want.output)).toBeUndefined();
  expect(backend.submissions() - before).toBe(submissions);
  return outputs.output;
}

/** Runs op on the GPU, which must delegate with `reason`, giving js's outputs. */
async function expectDelegated(op: string, args: Args, reason: string): Promise<void> {
  const got = await gpu(op, args);
  expect(got.reason).toBe(reason);
  expect(mismatch(got.outputs.output, js(op, args).output)).toBeUndefined();
}

function values(r: Rng, dtype: DType, n: number): Float32Array | Int32Array {
  if (dtype === 'int32') return Int32Array.from({ length: n }, () => (r.next() * 2 ** 32) | 0);
  return Float32Array.from({ length: n }, () => r.next() * 20 - 10);
}

/** n entries: random rows of data (any order, repeats), sorted segment ids below `segments` with gaps. */
function entries(r: Rng, n: number, rows: number, segments: number, idDType: DType = 'int32') {
  const idx = Array.from({ length: n }, () => r.int(rows));
  const ids = Array.from({ length: n }, () => r.int(segments)).sort((a, b) => a - b);
  return { indices: dense(idx, [n], idDType), segment_ids: dense(ids, [n], idDType) };
}

const MODES = ['sum', 'mean', 'sqrt_n'] as const;

describe('sparse segment reductions on webgpu', () => {
  for (const mode of MODES)
    for (const [shape, n, segments] of [
      [[50, 7], 200, 30], // counts around 7: the reciprocal
      [[40, 3, 5], 400, 12], // counts past 10: the division
      [[300], 1000, 500],
      [[20, 33], 60, 60],
    ] as [number[], number, number][])
      it(`${mode}, float32, data [${shape}], ${n} entries`, async () => {
        const r = rng(shape[0] * 31 + n + mode.length);
        const data = dense(
          values(
            r,
            'float32',
            shape.reduce((a, b) => a * b, 1),
          ),
          shape,
          'float32',
        );
        const e = entries(r, n, shape[0], segments, n % 2 ? 'int64' : 'int32');
        await expectGpuMatchesJs(`sparse_segment_${mode}`, { data, ...e, num_segments: null });
        await expectGpuMatchesJs(`sparse_segment_${mode}`, { data, ...e, num_segments: segments + 5 });
      });

  it('sum in int32 wraps exactly as js', async () => {
    const r = rng(7);
    for (const [shape, n, segments] of [
      [[64, 9], 500, 40],
      [[1000], 3000, 7],
    ] as [number[], number, number][]) {
      const data = dense(
        values(
          r,
          'int32',
          shape.reduce((a, b) => a * b, 1),
        ),
        shape,
        'int32',
      );
      const e = entries(r, n, shape[0], segments);
      await expectGpuMatchesJs('sparse_segment_sum', { data, ...e, num_segments: null });
      await expectGpuMatchesJs('sparse_segment_sum', { data, ...e, num_segments: segments + 3 });
    }
    const wraps = await expectGpuMatchesJs('sparse_segment_sum', {
      data: dense([2147483647, 1], [2], 'int32'),
      indices: dense([0, 1, 1], [3], 'int32'),
      segment_ids: dense([0, 0, 1], [3], 'int32'),
      num_segments: null,
    });
    expect(Array.from(wraps.data as Int32Array)).toEqual([-2147483648, 1]);
  });

  it('hand-computed: mean and sqrt_n scale each segment by its count', async () => {
    const data = dense([1, 2, 3, 4, 5, 6], [3, 2], 'float32');
    const e = { indices: dense([0, 1, 2, 2], [4], 'int32'), segment_ids: dense([0, 0, 2, 2], [4], 'int32') };
    const mean = await expectGpuMatchesJs('sparse_segment_mean', { data, ...e, num_segments: 4 });
    expect(Array.from(mean.data)).toEqual([2, 3, 0, 0, 5, 6, 0, 0]);
    const sqrtN = await expectGpuMatchesJs('sparse_segment_sqrt_n', { data, ...e, num_segments: null });
    expect(Array.from(sqrtN.data)).toEqual(
      [4, 6, 0, 0, 10, 12].map(Math.fround).map((v) => Math.fround(v * Math.fround(1 / Math.fround(Math.SQRT2)))),
    );
  });

  it('float64, int64 and (for mean and sqrt_n) int32 run on the JS kernels, saying so', async () => {
    const e = { indices: dense([0, 1], [2], 'int32'), segment_ids: dense([0, 0], [2], 'int32'), num_segments: null };
    for (const mode of MODES)
      await expectDelegated(
        `sparse_segment_${mode}`,
        { data: dense([1.5, 2.5], [2], 'float64'), ...e },
        REASONS.notComputed('float64'),
      );
    await expectDelegated(
      'sparse_segment_sum',
      { data: dense([1n, 2n], [2], 'int64'), ...e },
      REASONS.notComputed('int64'),
    );
    await expectDelegated(
      'sparse_segment_mean',
      { data: dense([1, 2], [2], 'int32'), ...e },
      REASONS.notComputed('int32'),
    );
  });

  it('float32 screens: inf, a sum that could be subnormal, an overflowing result', async () => {
    const e = { indices: dense([0, 1], [2], 'int32'), segment_ids: dense([0, 0], [2], 'int32'), num_segments: null };
    for (const mode of MODES) {
      const op = `sparse_segment_${mode}`;
      await expectDelegated(op, { data: dense([1, Infinity], [2], 'float32'), ...e }, REASONS.nonFinite);
      // Both normal, but their sum 1.5e-38 - 1.2e-38 is below 2^-126.
      await expectDelegated(op, { data: dense([1.5e-38, -1.2e-38], [2], 'float32'), ...e }, REASONS.subnormal);
      await expectDelegated(op, { data: dense([3e38, 3e38], [2], 'float32'), ...e }, REASONS.nonFiniteResult);
    }
  });

  it('empty: no entries, zero-sized rows, no segments', async () => {
    for (const mode of MODES) {
      const op = `sparse_segment_${mode}`;
      const none = { indices: dense([], [0], 'int32'), segment_ids: dense([], [0], 'int32') };
      const data = dense([1, 2, 3, 4], [2, 2], 'float32');
      await expectGpuMatchesJs(op, { data, ...none, num_segments: null }, 0);
      await expectGpuMatchesJs(op, { data, ...none, num_segments: 3 }, 0);
      await expectGpuMatchesJs(
        op,
        {
          data: dense([], [3, 0], 'float32'),
          indices: dense([0, 2], [2], 'int32'),
          segment_ids: dense([1, 4], [2], 'int32'),
          num_segments: null,
        },
        0,
      );
    }
  });
});

describe('sparse segment gradients on webgpu', () => {
  for (const mode of MODES)
    for (const [gradShape, n, rows] of [
      [[30, 6], 300, 50],
      [[12, 2, 3], 400, 20], // many entries a row
      [[200], 150, 400],
    ] as [number[], number, number][])
      it(`${mode}_grad, float32, grad [${gradShape}], ${n} entries into ${rows} rows`, async () => {
        const r = rng(gradShape[0] * 7 + n + rows + mode.length);
        const grad = dense(
          values(
            r,
            'float32',
            gradShape.reduce((a, b) => a * b, 1),
          ),
          gradShape,
          'float32',
        );
        // Any order of both (the gradient does not need sorted ids), repeats included.
        const idDType = n % 2 ? 'int64' : 'int32';
        const indices = dense(
          Array.from({ length: n }, () => r.int(rows)),
          [n],
          idDType,
        );
        const segment_ids = dense(
          Array.from({ length: n }, () => r.int(gradShape[0])),
          [n],
          idDType,
        );
        await expectGpuMatchesJs(`sparse_segment_${mode}_grad`, { grad, indices, segment_ids, output_dim0: rows });
      });

  it('hand-computed: TensorFlow SparseSegmentMeanGrad example', async () => {
    const out = await expectGpuMatchesJs('sparse_segment_mean_grad', {
      grad: dense([1, 2, 10, 20], [2, 2], 'float32'),
      indices: dense([0, 2, 2], [3], 'int32'),
      segment_ids: dense([0, 0, 1], [3], 'int32'),
      output_dim0: 4,
    });
    expect(Array.from(out.data)).toEqual([0.5, 1, 0, 0, 10.5, 21, 0, 0]);
  });

  it('float64 delegated; inf, subnormal products and overflow screened; empty inputs', async () => {
    const e = { indices: dense([0, 1, 1], [3], 'int32'), segment_ids: dense([0, 0, 1], [3], 'int32'), output_dim0: 3 };
    for (const mode of MODES) {
      const op = `sparse_segment_${mode}_grad`;
      await expectDelegated(op, { grad: dense([1, 2], [2], 'float64'), ...e }, REASONS.notComputed('float64'));
      await expectDelegated(op, { grad: dense([1, Number.NaN], [2], 'float32'), ...e }, REASONS.nonFinite);
      // 1.5e-38 and -1.2e-38 are normal; added into row 1, they leave a subnormal.
      await expectDelegated(op, { grad: dense([1.5e-38, -1.2e-38], [2], 'float32'), ...e }, REASONS.subnormal);
      // Row 1 gets 3e38 · k0 + 3e38: past float32 in every mode.
      await expectDelegated(op, { grad: dense([3e38, 3e38], [2], 'float32'), ...e }, REASONS.nonFiniteResult);
      const none = { indices: dense([], [0], 'int32'), segment_ids: dense([], [0], 'int32') };
      await expectGpuMatchesJs(op, { grad: dense([1], [1, 1], 'float32'), ...none, output_dim0: 2 }, 0);
      await expectGpuMatchesJs(
        op,
        { grad: dense([], [1, 0], 'float32'), ...e, segment_ids: dense([0, 0, 0], [3], 'int32') },
        0,
      );
      await expectGpuMatchesJs(op, { grad: dense([], [0, 4], 'float32'), ...none, output_dim0: 0 }, 0);
    }
  });
});
