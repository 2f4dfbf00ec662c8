import { describe, expect, it } from 'vitest';
import type { DenseData, DType, SparseData } from '@sparse/kernel-abi';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { REASONS } from '../src/delegation.js';
import { WEBGPU_FAMILIES } from '../src/generated/families.js';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';

// The generated expression-family kernels on WebGPU (SwiftShader in CI), against the JS reference kernels on seeded
// random inputs: which calls run on the GPU, and that their results match (int32 exactly, float32 within rounding).

type Data = SparseData | DenseData;

useBackend();

async function runGpu(op: string, args: Args): Promise<{ out: Data; delegated?: string }> {
  const { outputs, reason } = await onGpu<Record<string, Data>>(op, args);
  return { out: Object.values(outputs)[0], delegated: reason };
}

const runJs = (op: string, args: Args): Data => Object.values(onJs<Record<string, Data>>(op, args))[0];

/** The GPU result as the JS kernel's: kind, dtype, shape and indices exactly; int32 values exactly, float32 close. */
function expectLike(got: Data, want: Data, what: string): void {
  expect([got.kind, got.dtype, got.shape], what).toEqual([want.kind, want.dtype, want.shape]);
  if (got.kind === 'sparse') expect(Array.from(got.indices), what).toEqual(Array.from((want as SparseData).indices));
  const g = got.kind === 'sparse' ? got.values : got.data;
  const w = want.kind === 'sparse' ? want.values : want.data;
  expect(g.constructor, what).toBe(w.constructor);
  expect(g.length, what).toBe(w.length);
  if (want.dtype !== 'float32') {
    expect(Array.from(g as Int32Array), what).toEqual(Array.from(w as Int32Array));
    return;
  }
  for (let i = 0; i < w.length; i++) {
    const [x, y] = [g[i] as number, w[i] as number];
    if (Math.abs(x - y) > 1e-6 + 1e-5 * Math.abs(y)) expect.fail(`${what} [${i}]: ${x} vs ${y}`);
  }
}

/** Runs both; the GPU must not have delegated (or must have, with `delegated` in its reason), and agree. */
async function check(op: string, args: Args, delegated?: string): Promise<void> {
  const gpu = await runGpu(op, args);
  const what = `${op} ${JSON.stringify(args, (_k, v) => (ArrayBuffer.isView(v) ? `[${(v as Float32Array).length}]` : v))}`;
  if (delegated === undefined) expect(gpu.delegated, what).toBeUndefined();
  else expect(gpu.delegated, what).toContain(delegated);
  expectLike(gpu.out, runJs(op, args), what);
}

/** A random sparse tensor in canonical order (each position stored with probability `density`). */
function randomSparse(r: Rng, shape: number[], dtype: DType, value: () => number, density = 0.4): SparseData {
  const size = shape.reduce((p, d) => p * d, 1);
  const indices: number[][] = [];
  const values: number[] = [];
  for (let flat = 0; flat < size; flat++) {
    if (r.next() >= density) continue;
    const idx: number[] = [];
    let rest = flat;
    for (let d = shape.length - 1; d >= 0; d--) {
      idx.unshift(rest % shape[d]);
      rest = Math.floor(rest / shape[d]);
    }
    indices.push(idx);
    values.push(value());
  }
  return sparse(indices, values, shape, dtype);
}

function randomDense(shape: number[], dtype: DType, value: () => number): DenseData {
  return dense(Array.from({ length: shape.reduce((p, d) => p * d, 1) }, value), shape, dtype);
}

const uniform = (r: Rng, lo: number, hi: number) => () => lo + (hi - lo) * r.next();
/** Nonzero int32 values over the whole range, the extremes included: sums and products wrap. */
const anyInt32 = (r: Rng) => () => {
  const k = r.int(10);
  if (k === 0) return -2147483648;
  if (k === 1) return 2147483647;
  return Math.floor(r.next() * 2 ** 32) | 0 || 1;
};
const smallInt = (r: Rng) => () => r.int(19) - 9 || 1;

/** Each float32 map op's values, inside its domain (where TensorFlow's result is finite). */
const MAP_DOMAINS: Record<string, [number, number]> = {
  sparse_sqrt: [0.001, 50],
  sparse_asin: [-1, 1],
  sparse_atanh: [-0.99, 0.99],
  sparse_log1p: [-0.99, 30],
  sparse_expm1: [-20, 20],
  sparse_sinh: [-20, 20],
  sparse_tan: [-1.5, 1.5],
  sparse_sin: [-200, 200],
};

const SHAPE = [5, 6, 7];

describe('generated sources', () => {
  it('compiles every WGSL module, and says why for every dtype it does not generate', async () => {
    let modules = 0;
    for (const [op, src] of Object.entries(WEBGPU_FAMILIES)) {
      for (const [dtype, entry] of Object.entries(src.dtypes)) {
        if ('not' in entry) {
          expect(dtype, op).toBe('int32');
          expect(entry.not.length, op).toBeGreaterThan(10);
          continue;
        }
        for (const code of [entry.wgsl, entry.dense]) {
          if (code === undefined) continue;
          const info = await backend.device.createShaderModule({ code }).getCompilationInfo();
          const errors = info.messages.filter((m) => m.type === 'error').map((m) => m.message);
          expect(errors, `${op} ${dtype}`).toEqual([]);
          modules++;
        }
      }
    }
    expect(modules).toBeGreaterThan(50);
  });
});

describe('map', () => {
  const maps = Object.keys(WEBGPU_FAMILIES).filter((op) => WEBGPU_FAMILIES[op].family === 'map');

  it('runs every float32 map on the GPU, within float32 rounding of the JS kernels', async () => {
    expect(maps.length).toBeGreaterThan(10);
    const r = rng(1);
    for (const op of maps) {
      if (!WEBGPU_FAMILIES[op].dtypes.float32) continue;
      const [lo, hi] = MAP_DOMAINS[op] ?? [-10, 10];
      await check(op, { sp_input: randomSparse(r, SHAPE, 'float32', uniform(r, lo, hi)) });
      // Small values too: the helpers' series near 0.
      await check(op, { sp_input: randomSparse(r, [40], 'float32', uniform(r, lo >= 0 ? 1e-6 : -1e-3, 1e-3), 1) });
    }
  });

  it('submits one command buffer a call, and compiles a kernel once', async () => {
    const sp = randomSparse(rng(11), SHAPE, 'float32', () => 1.5);
    await check('sparse_neg', { sp_input: sp });
    const [submitted, compiled] = [backend.submissions(), backend.pipelinesCompiled()];
    await check('sparse_neg', { sp_input: sp });
    expect([backend.submissions(), backend.pipelinesCompiled()]).toEqual([submitted + 1, compiled]);
  });

  it('runs the int32 maps on the GPU, wrapping exactly (neg and abs of -2^31, square)', async () => {
    const r = rng(2);
    for (const op of maps) {
      if (!WEBGPU_FAMILIES[op].dtypes.int32) continue;
      const sp = randomSparse(r, SHAPE, 'int32', anyInt32(r));
      await check(op, { sp_input: sp });
    }
    const extremes = sparse([[0], [1], [2], [3]], [-2147483648, 2147483647, 46341, -3], [4], 'int32');
    for (const op of ['sparse_neg', 'sparse_abs', 'sparse_square', 'sparse_sign'])
      await check(op, { sp_input: extremes });
  });

  it('rounds half to even (rint, round)', async () => {
    const sp = sparse([[0], [1], [2], [3], [4], [5]], [0.5, 1.5, 2.5, -0.5, -2.5, 3.7], [6], 'float32');
    await check('sparse_rint', { sp_input: sp });
    await check('sparse_round', { sp_input: sp });
  });
});

describe('cwise', () => {
  it('runs float32 and int32 on the GPU, the dense side broadcast', async () => {
    const r = rng(3);
    for (const denseShape of [SHAPE, [7], [6, 1], [1, 1, 7], []]) {
      for (const op of ['sparse_dense_cwise_mul', 'sparse_dense_cwise_add', 'sparse_dense_cwise_div']) {
        const sp = randomSparse(r, SHAPE, 'float32', uniform(r, -8, 8));
        await check(op, { sp_input: sp, dense: randomDense(denseShape, 'float32', uniform(r, 0.5, 4)) });
      }
      for (const op of ['sparse_dense_cwise_mul', 'sparse_dense_cwise_add']) {
        const sp = randomSparse(r, SHAPE, 'int32', anyInt32(r));
        await check(op, { sp_input: sp, dense: randomDense(denseShape, 'int32', anyInt32(r)) });
      }
    }
  });

  it('computes float32 pow on the GPU, a negative base with a whole exponent included', async () => {
    const r = rng(4);
    const sp = randomSparse(r, SHAPE, 'float32', uniform(r, 0.1, 3));
    await check('sparse_dense_cwise_pow', { sp_input: sp, dense: randomDense([7], 'float32', uniform(r, -3, 3)) });
    const neg = randomSparse(r, SHAPE, 'float32', uniform(r, -3, -0.1));
    await check('sparse_dense_cwise_pow', { sp_input: neg, dense: randomDense([7], 'float32', () => r.int(7) - 3) });
  });

  it('delegates int32 division and pow, saying why; a division by zero still fails as on js', async () => {
    const r = rng(5);
    const sp = randomSparse(r, SHAPE, 'int32', smallInt(r));
    const d = randomDense([7], 'int32', smallInt(r));
    await check('sparse_dense_cwise_div', { sp_input: sp, dense: d }, 'int32 division');
    await check(
      'sparse_dense_cwise_pow',
      { sp_input: sp, dense: randomDense([7], 'int32', () => r.int(4)) },
      'int32 pow',
    );
    const zero = randomDense([7], 'int32', () => 0);
    await expect(runGpu('sparse_dense_cwise_div', { sp_input: sp, dense: zero })).rejects.toThrow();
  });
});

describe('reduce', () => {
  const reductions = ['sparse_reduce_sum', 'sparse_reduce_max', 'sparse_reduce_min', 'sparse_reduce_prod'];
  const axesCases: [number[] | null, boolean][] = [
    [null, false],
    [[1], false],
    [[0, 2], true],
    [[-1], false],
    [[0], true],
  ];

  it('runs float32 and int32 reductions on the GPU, dense and sparse outputs', async () => {
    const r = rng(6);
    for (const base of reductions) {
      for (const op of [base, `${base}_sparse`]) {
        for (const [axis, keepdims] of axesCases) {
          const values = base === 'sparse_reduce_prod' ? uniform(r, 0.5, 2) : uniform(r, -100, 100);
          await check(op, { sp_input: randomSparse(r, SHAPE, 'float32', values, 0.3), axis, keepdims });
          await check(op, { sp_input: randomSparse(r, SHAPE, 'int32', anyInt32(r), 0.3), axis, keepdims });
        }
      }
    }
  });

  it('gives 0 for empty groups and reduces no entries at all', async () => {
    const r = rng(7);
    await check('sparse_reduce_max', {
      sp_input: randomSparse(r, SHAPE, 'float32', uniform(r, -5, -1), 0.05),
      axis: [2],
      keepdims: false,
    });
    const empty = sparse([], [], [3, 4], 'float32');
    await check('sparse_reduce_sum', { sp_input: empty, axis: [1], keepdims: false });
    await check('sparse_reduce_sum_sparse', { sp_input: empty, axis: [1], keepdims: false });
  });
});

describe('merge', () => {
  it('runs sparse + sparse on the GPU, union and thresh, float32 and int32', async () => {
    const r = rng(8);
    for (const thresh of [0, 2.5]) {
      const a = randomSparse(r, SHAPE, 'float32', () => r.int(9) - 4);
      const b = randomSparse(r, SHAPE, 'float32', () => r.int(9) - 4);
      await check('sparse_add', { a, b, thresh });
    }
    const a = randomSparse(r, SHAPE, 'int32', anyInt32(r));
    const b = randomSparse(r, SHAPE, 'int32', anyInt32(r));
    await check('sparse_add', { a, b, thresh: 0 });
    await check('sparse_add', { a: randomSparse(r, SHAPE, 'int32', smallInt(r)), b, thresh: 3 });
    for (const op of ['sparse_maximum', 'sparse_minimum']) {
      await check(op, {
        sp_a: randomSparse(r, SHAPE, 'float32', uniform(r, -9, 9)),
        sp_b: randomSparse(r, SHAPE, 'float32', uniform(r, -9, 9)),
      });
      await check(op, {
        sp_a: randomSparse(r, SHAPE, 'int32', anyInt32(r)),
        sp_b: randomSparse(r, SHAPE, 'int32', anyInt32(r)),
      });
    }
    // One side empty.
    await check('sparse_add', {
      a: sparse([], [], SHAPE, 'float32'),
      b: randomSparse(r, SHAPE, 'float32', uniform(r, -1, 1)),
      thresh: 0,
    });
  });

  it('runs sparse + dense on the GPU, either side dense', async () => {
    const r = rng(9);
    const sp = randomSparse(r, SHAPE, 'float32', uniform(r, -9, 9));
    const dn = randomDense(SHAPE, 'float32', uniform(r, -9, 9));
    await check('sparse_add', { a: sp, b: dn, thresh: 0 });
    await check('sparse_add', { a: dn, b: sp, thresh: 0 });
    const si = randomSparse(r, SHAPE, 'int32', anyInt32(r));
    await check('sparse_add', { a: randomDense(SHAPE, 'int32', anyInt32(r)), b: si, thresh: 0 });
  });
});

describe('delegation', () => {
  it('delegates other dtypes, saying which', async () => {
    const r = rng(10);
    const sp = randomSparse(r, SHAPE, 'float64', uniform(r, -1, 1));
    await check('sparse_neg', { sp_input: sp }, 'float64');
    await check('sparse_reduce_sum', { sp_input: sp, axis: null, keepdims: false }, 'float64');
  });

  it('delegates float32 inputs holding inf, nan or a subnormal', async () => {
    const sp = sparse([[0], [1]], [1, Number.NaN], [2], 'float32');
    await check('sparse_neg', { sp_input: sp }, REASONS.nonFinite);
    await check('sparse_abs', { sp_input: sparse([[0]], [1e-40], [1], 'float32') }, REASONS.nonFinite);
  });

  it('reruns on JS a result that overflows or that WGSL leaves undefined', async () => {
    await check('sparse_square', { sp_input: sparse([[0], [1]], [1e20, 2], [2], 'float32') }, REASONS.nonFiniteResult);
    await check('sparse_sqrt', { sp_input: sparse([[0], [1]], [4, -1], [2], 'float32') }, REASONS.nonFiniteResult);
    await check(
      'sparse_dense_cwise_div',
      { sp_input: sparse([[0], [1]], [1, 2], [2], 'float32'), dense: dense([1, 0], [2], 'float32') },
      REASONS.nonFiniteResult,
    );
    await check('sparse_sin', { sp_input: sparse([[0]], [1e5], [1], 'float32') }, REASONS.nonFiniteResult);
  });
});
