import { describe, expect, it } from 'vitest';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';
import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { REASONS } from '../src/index.js';

// embedding_lookup_sparse, safe_embedding_lookup_sparse (and the gradient) on WebGPU, against the JS kernels.

type Outputs = Record<string, DenseData>;

useBackend();

const gpu = (op: string, args: Args) => onGpu<Outputs>(op, args);

const js = (op: string, args: Args) => onJs<Outputs>(op, args);

function mismatch(got: DenseData, want: DenseData): string | undefined {
  if (got.dtype !== want.dtype) return `dtype ${got.dtype} vs ${want.dtype}`;
  if (got.shape.join() !== want.shape.join()) return `shape [${got.shape}] vs [${want.shape}]`;
  if (got.data.constructor !== want.data.constructor) return `store ${got.data.constructor.name}`;
  const [g, w] = [got.data as Float32Array, want.data as Float32Array];
  if (g.length !== w.length) return `length ${g.length} vs ${w.length}`;
  for (let i = 0; i < w.length; i++)
    if (!(Math.abs(g[i] - w[i]) <= 1e-6 + 1e-5 * Math.abs(w[i]))) return `[${i}]: ${g[i]} vs ${w[i]}`;
  return undefined;
}

async function expectGpuMatchesJs(op: string, args: Args, submits = 1): Promise<Outputs> {
  const before = backend.submissions();
  const { outputs, reason } = await gpu(op, args);
  expect(reason).toBeUndefined();
  const want = js(op, args);
  for (const name of Object.keys(want)) expect(mismatch(outputs[name], want[name]), name).toBeUndefined();
  expect(Object.keys(outputs).sort()).toEqual(Object.keys(want).sort());
  expect(backend.submissions() - before).toBe(submits);
  return outputs;
}

function floats(r: Rng, n: number, lo = -1, hi = 1): Float32Array {
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) v[i] = lo + r.next() * (hi - lo);
  return v;
}

function table(r: Rng, shape: number[]): DenseData {
  return {
    kind: 'dense',
    data: floats(
      r,
      shape.reduce((a, b) => a * b, 1),
    ),
    shape,
    dtype: 'float32',
  };
}

/**
 * Ids of a [rows, cols] SparseTensor in row order (the order within a row shuffled), some rows empty, ids in
 * [lo, vocab) (negative ones for the safe lookup to drop); weights alongside, in (wlo, 1].
 */
function idsAndWeights(r: Rng, rows: number, cols: number, vocab: number, lo = 0, wlo = 0.1) {
  const idx: number[] = [];
  const ids: number[] = [];
  for (let i = 0; i < rows; i++) {
    if (r.next() < 0.2) continue;
    const k = 1 + r.int(cols);
    const js = Array.from({ length: cols }, (_, j) => j)
      .sort(() => r.next() - 0.5)
      .slice(0, k);
    for (const j of js) {
      idx.push(i, j);
      ids.push(lo + r.int(vocab - lo));
    }
  }
  const n = ids.length;
  const sp: SparseData = {
    kind: 'sparse',
    indices: Float64Array.from(idx),
    values: Int32Array.from(ids),
    shape: [rows, cols],
    dtype: 'int32',
  };
  const weights: SparseData = { ...sp, values: floats(r, n, wlo, 1), dtype: 'float32' };
  return { sp, weights };
}

const LOOKUP = 'embedding_lookup_sparse';
const SAFE = 'safe_embedding_lookup_sparse';
const GRAD = 'embedding_lookup_sparse_grad';
const COMBINERS = ['sum', 'mean', 'sqrtn'] as const;

describe('embedding_lookup_sparse on webgpu', () => {
  for (const combiner of COMBINERS)
    for (const weighted of [false, true])
      for (const maxNorm of [null, 0.8])
        it(`${combiner}, ${weighted ? 'weighted' : 'unweighted'}, max_norm ${maxNorm}`, async () => {
          const r = rng(500 + COMBINERS.indexOf(combiner) * 4 + (weighted ? 2 : 0) + (maxNorm ? 1 : 0));
          const params = table(r, [40, 3, 5]);
          const { sp, weights } = idsAndWeights(r, 30, 6, 40);
          await expectGpuMatchesJs(LOOKUP, {
            params,
            sp_ids: sp,
            sp_weights: weighted ? weights : null,
            combiner,
            max_norm: maxNorm,
          });
        });

  it('int64 ids, float64 weights (cast to float32), mean with weights that cancel to a zero divisor', async () => {
    const r = rng(520);
    const params = table(r, [10, 4]);
    const { sp, weights } = idsAndWeights(r, 12, 4, 10);
    const ids64 = { ...sp, values: BigInt64Array.from(sp.values as Int32Array, BigInt), dtype: 'int64' };
    const w64 = { ...weights, values: Float64Array.from(weights.values as Float32Array), dtype: 'float64' };
    await expectGpuMatchesJs(LOOKUP, { params, sp_ids: ids64, sp_weights: w64, combiner: 'sqrtn', max_norm: null });
    // Row 0 holds ids with weights 0.5 and -0.5: its divisor is 0, and the row is zeros (div_no_nan).
    const two: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([0, 0, 0, 1, 1, 0]),
      values: Int32Array.from([1, 2, 3]),
      shape: [2, 2],
      dtype: 'int32',
    };
    const w: SparseData = { ...two, values: Float32Array.from([0.5, -0.5, 2]), dtype: 'float32' };
    const out = await expectGpuMatchesJs(LOOKUP, {
      params,
      sp_ids: two,
      sp_weights: w,
      combiner: 'mean',
      max_norm: null,
    });
    expect(Array.from(out.output.data.subarray(0, 4))).toEqual([0, 0, 0, 0]);
  });

  it('no ids: no output rows, without the GPU', async () => {
    const params = table(rng(521), [5, 2]);
    const sp: SparseData = {
      kind: 'sparse',
      indices: new Float64Array(0),
      values: new Int32Array(0),
      shape: [3, 2],
      dtype: 'int32',
    };
    await expectGpuMatchesJs(LOOKUP, { params, sp_ids: sp, sp_weights: null, combiner: 'mean', max_norm: null }, 0);
  });

  it('float64 params run on the JS kernels; inf/nan and possibly subnormal float32 inputs too', async () => {
    const r = rng(522);
    const params = table(r, [8, 3]);
    const { sp, weights } = idsAndWeights(r, 6, 3, 8);
    const base = { params, sp_ids: sp, sp_weights: weights, combiner: 'mean', max_norm: null };
    const p64 = { ...params, data: Float64Array.from(params.data as Float32Array), dtype: 'float64' };
    const w64 = { ...weights, values: Float64Array.from(weights.values as Float32Array), dtype: 'float64' };
    const f64 = { ...base, params: p64, sp_weights: w64 };
    const d = await gpu(LOOKUP, f64);
    expect(d.reason).toBe(REASONS.notComputed('float64'));
    expect(d.outputs.output).toEqual(js(LOOKUP, f64).output);
    const nan = {
      ...base,
      params: { ...params, data: (params.data as Float32Array).map((x, i) => (i === 4 ? NaN : x)) },
    };
    expect((await gpu(LOOKUP, nan)).reason).toBe(REASONS.nonFinite);
    // A weight of 1e-30 times a value of about 1e-10 could be subnormal: the host bound refuses it.
    const tinyW = { ...weights, values: (weights.values as Float32Array).map((x, i) => (i === 0 ? 1e-30 : x)) };
    const tinyP = { ...params, data: (params.data as Float32Array).map((x, i) => (i === 0 ? 1e-10 : x)) };
    const sub = { ...base, params: tinyP, sp_weights: tinyW };
    const s = await gpu(LOOKUP, sub);
    expect(s.reason).toBe(REASONS.subnormal);
    expect(mismatch(s.outputs.output, js(LOOKUP, sub).output)).toBeUndefined();
  });
});

describe('safe_embedding_lookup_sparse on webgpu', () => {
  for (const combiner of COMBINERS)
    for (const [weighted, maxNorm, defaultId] of [
      [false, null, null],
      [true, null, 3],
      [true, 0.7, null],
      [false, 0.7, 5],
    ] as const)
      it(`${combiner}, ${weighted ? 'weighted' : 'unweighted'}, max_norm ${maxNorm}, default_id ${defaultId}`, async () => {
        const r = rng(
          600 + COMBINERS.indexOf(combiner) * 8 + (weighted ? 4 : 0) + (maxNorm ? 2 : 0) + (defaultId ? 1 : 0),
        );
        const params = table(r, [30, 4]);
        // Negative ids and weights not above 0 to drop; entries in reverse order (any order is allowed).
        const { sp, weights } = idsAndWeights(r, 20, 5, 30, -5, -0.5);
        const n = sp.values.length;
        const reverse = <T extends SparseData>(s: T): T => ({
          ...s,
          indices: Float64Array.from({ length: 2 * n }, (_, k) => s.indices[2 * (n - 1 - (k >> 1)) + (k & 1)]),
          values: (s.values as Float32Array).slice().reverse(),
        });
        await expectGpuMatchesJs(SAFE, {
          embedding_weights: params,
          sparse_ids: reverse(sp),
          sparse_weights: weighted ? reverse(weights) : null,
          combiner,
          default_id: defaultId,
          max_norm: maxNorm,
        });
      });

  it('rank-3 ids and rank-3 params; a rank-1 input (one row)', async () => {
    const r = rng(630);
    const params = table(r, [12, 2, 3]);
    const idx: number[] = [];
    const ids: number[] = [];
    for (let a = 0; a < 3; a++)
      for (let b = 0; b < 4; b++)
        for (let c = 0; c < 3; c++)
          if (r.next() < 0.5) {
            idx.push(a, b, c);
            ids.push(r.int(12));
          }
    const sp: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from(idx),
      values: Int32Array.from(ids),
      shape: [3, 4, 3],
      dtype: 'int32',
    };
    await expectGpuMatchesJs(SAFE, {
      embedding_weights: params,
      sparse_ids: sp,
      sparse_weights: null,
      combiner: 'sqrtn',
      default_id: 2,
      max_norm: null,
    });
    const one: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([0, 2]),
      values: Int32Array.from([4, 7]),
      shape: [3],
      dtype: 'int32',
    };
    await expectGpuMatchesJs(SAFE, {
      embedding_weights: params,
      sparse_ids: one,
      sparse_weights: null,
      combiner: 'mean',
      default_id: null,
      max_norm: 0.5,
    });
  });
});

describe('embedding_lookup_sparse_grad on webgpu', () => {
  for (const combiner of COMBINERS)
    for (const weighted of [false, true])
      it(`${combiner}, ${weighted ? 'weighted' : 'unweighted'}`, async () => {
        const r = rng(700 + COMBINERS.indexOf(combiner) * 2 + (weighted ? 1 : 0));
        const params = table(r, [25, 2, 3]);
        const { sp, weights } = idsAndWeights(r, 16, 5, 25);
        const rows = sp.indices[(sp.values.length - 1) * 2] + 1;
        const grad = table(r, [rows, 2, 3]);
        await expectGpuMatchesJs(GRAD, {
          params,
          sp_ids: sp,
          sp_weights: weighted ? weights : null,
          combiner,
          max_norm: null,
          grad,
        });
      });

  it('a zero divisor passes no gradient; no ids; max_norm and float64 run on the JS kernels', async () => {
    const r = rng(720);
    const params = table(r, [6, 2]);
    const two: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([0, 0, 0, 1, 1, 0]),
      values: Int32Array.from([1, 2, 1]),
      shape: [2, 2],
      dtype: 'int32',
    };
    const w: SparseData = { ...two, values: Float32Array.from([0.5, -0.5, 2]), dtype: 'float32' };
    const grad = table(r, [2, 2]);
    const out = await expectGpuMatchesJs(GRAD, {
      params,
      sp_ids: two,
      sp_weights: w,
      combiner: 'mean',
      max_norm: null,
      grad,
    });
    expect(Array.from(out.sp_weights_grad.data.subarray(0, 2))).toEqual([0, 0]);
    const none: SparseData = {
      kind: 'sparse',
      indices: new Float64Array(0),
      values: new Int32Array(0),
      shape: [2, 2],
      dtype: 'int32',
    };
    await expectGpuMatchesJs(
      GRAD,
      { params, sp_ids: none, sp_weights: null, combiner: 'sum', max_norm: null, grad: table(r, [0, 2]) },
      0,
    );
    const clipped = await gpu(GRAD, { params, sp_ids: two, sp_weights: w, combiner: 'sum', max_norm: 0.5, grad });
    expect(clipped.reason).toBe(REASONS.notPortedCase('the gradient of a lookup with max_norm'));
    const p64 = { ...params, data: Float64Array.from(params.data as Float32Array), dtype: 'float64' };
    const g64 = { ...grad, data: Float64Array.from(grad.data as Float32Array), dtype: 'float64' };
    expect(
      (await gpu(GRAD, { params: p64, sp_ids: two, sp_weights: null, combiner: 'sum', max_norm: null, grad: g64 }))
        .reason,
    ).toBe(REASONS.notComputed('float64'));
    const tiny = { ...grad, data: (grad.data as Float32Array).map((x, i) => (i === 0 ? 1e-39 : x)) };
    expect(
      (await gpu(GRAD, { params, sp_ids: two, sp_weights: w, combiner: 'sum', max_norm: null, grad: tiny })).reason,
    ).toBe(REASONS.nonFinite);
    const small = { ...grad, data: (grad.data as Float32Array).map((x, i) => (i === 0 ? 1e-37 : x)) };
    const s = await gpu(GRAD, { params, sp_ids: two, sp_weights: w, combiner: 'sqrtn', max_norm: null, grad: small });
    expect(s.reason).toBe(REASONS.subnormal);
  });
});
