import { describe, expect, it } from 'vitest';
import { backend, onGpu, onJs, useBackend, type Args } from './backend.js';
import { randomCsr } from './random.js';
import type { CsrData, DenseData, SparseData } from '@sparse/kernel-abi';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { REASONS } from '../src/index.js';

// sparse_matrix_mat_mul (CSR × dense) and sparse_bincount on WebGPU (SwiftShader in CI), against the JS kernels.

type Data = DenseData | SparseData;
type Outputs = Record<string, Data>;

useBackend();

const gpu = (op: string, args: Args) => onGpu<Outputs>(op, args);

const js = (op: string, args: Args) => onJs<Outputs>(op, args);

/** Where `got` differs from `want`: indices and shapes exactly; int32 exactly, float32 within 1e-6 + 1e-5·|want|. */
function mismatch(got: Data, want: Data): string | undefined {
  if (got.kind !== want.kind) return `kind ${got.kind} vs ${want.kind}`;
  if (got.dtype !== want.dtype) return `dtype ${got.dtype} vs ${want.dtype}`;
  if (got.shape.join() !== want.shape.join()) return `shape [${got.shape}] vs [${want.shape}]`;
  if (got.kind === 'sparse' && want.kind === 'sparse') {
    if (Array.from(got.indices).join() !== Array.from(want.indices).join()) return 'indices differ';
  }
  const [g, w] = [
    (got.kind === 'dense' ? got.data : got.values) as Float32Array,
    (want.kind === 'dense' ? want.data : want.values) as Float32Array,
  ];
  if (g.constructor !== w.constructor) return `store ${g.constructor.name} vs ${w.constructor.name}`;
  if (g.length !== w.length) return `length ${g.length} vs ${w.length}`;
  for (let i = 0; i < w.length; i++) {
    const ok = got.dtype === 'int32' ? g[i] === w[i] : Math.abs(g[i] - w[i]) <= 1e-6 + 1e-5 * Math.abs(w[i]);
    if (!ok) return `[${i}]: ${g[i]} vs ${w[i]}`;
  }
  return undefined;
}

/** Runs op on the GPU, which must not delegate, and compares it with js; `submits`: GPU submissions expected. */
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

function floats(r: Rng, n: number): Float32Array {
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) v[i] = r.next() * 2 - 1;
  return v;
}

function dense(r: Rng, shape: number[]): DenseData {
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

const MATMUL = 'sparse_matrix_mat_mul';

/** op(a) · op(b) operands: a [batch,] (ta ? k × m : m × k), b [batch,] (tb ? n × k : k × n). */
function matmulArgs(seed: number, batch: number, m: number, k: number, n: number, flags: Args, rank3 = batch > 1) {
  const r = rng(seed);
  const ta = !!(flags.transpose_a || flags.adjoint_a);
  const tb = !!(flags.transpose_b || flags.adjoint_b);
  const a = randomCsr(r, batch, ta ? k : m, ta ? m : k, 0.15, rank3);
  const bShape = tb ? [n, k] : [k, n];
  const b = dense(r, rank3 ? [batch, ...bShape] : bShape);
  return {
    a,
    b,
    transpose_a: false,
    transpose_b: false,
    adjoint_a: false,
    adjoint_b: false,
    transpose_output: false,
    conjugate_output: false,
    ...flags,
  };
}

describe('sparse_matrix_mat_mul on webgpu', () => {
  const FLAGS: Args[] = [
    {},
    { transpose_a: true },
    { adjoint_b: true },
    { adjoint_a: true, transpose_b: true },
    { transpose_output: true },
    { transpose_a: true, transpose_b: true, transpose_output: true, conjugate_output: true },
  ];
  FLAGS.forEach((flags, f) => {
    it(`rank 2, ${JSON.stringify(flags)}`, async () => {
      await expectGpuMatchesJs(MATMUL, matmulArgs(100 + f, 1, 37, 23, 19, flags));
    });
    it(`a batch of 3, ${JSON.stringify(flags)}`, async () => {
      await expectGpuMatchesJs(MATMUL, matmulArgs(200 + f, 3, 13, 11, 7, flags));
    });
  });

  it('a larger product: 200 × 300 (5%) times 300 × 48', async () => {
    await expectGpuMatchesJs(MATMUL, matmulArgs(300, 1, 200, 300, 48, {}));
  });

  it('empty: no entries, no rows, no columns, a batch with one matrix empty', async () => {
    await expectGpuMatchesJs(
      MATMUL,
      { ...matmulArgs(301, 1, 4, 3, 2, {}), a: randomCsr(rng(1), 1, 4, 3, 0, false) },
      0,
    );
    await expectGpuMatchesJs(MATMUL, matmulArgs(302, 1, 0, 3, 2, {}), 0);
    await expectGpuMatchesJs(MATMUL, matmulArgs(303, 1, 4, 3, 0, { transpose_a: true }), 0);
    const args = matmulArgs(304, 2, 5, 4, 3, {});
    const a = randomCsr(rng(5), 2, 5, 4, 0.5, true);
    // The second matrix of the batch holds nothing.
    const first = a.batchPointers[1];
    const empty: CsrData = {
      ...a,
      batchPointers: Int32Array.from([0, first, first]),
      rowPointers: Int32Array.from([...a.rowPointers.subarray(0, 6), 0, 0, 0, 0, 0, 0]),
      colIndices: a.colIndices.slice(0, first),
      values: (a.values as Float32Array).slice(0, first),
    };
    await expectGpuMatchesJs(MATMUL, { ...args, a: empty });
  });

  it('float64 runs on the JS kernels, saying so', async () => {
    const args = matmulArgs(305, 1, 3, 4, 2, {});
    const f64 = {
      ...args,
      a: { ...args.a, values: Float64Array.from(args.a.values as Float32Array), dtype: 'float64' },
      b: { ...args.b, data: Float64Array.from(args.b.data as Float32Array), dtype: 'float64' },
    };
    const { outputs, reason } = await gpu(MATMUL, f64);
    expect(reason).toBe(REASONS.notComputed('float64'));
    expect(outputs.output).toEqual(js(MATMUL, f64).output);
  });

  it('float32 inf/nan/subnormal inputs, products that could be subnormal, and overflow, run on the JS kernels', async () => {
    const args = matmulArgs(306, 1, 3, 4, 2, {});
    const a = (v: Float32Array) => ({ ...args, a: { ...args.a, values: v } });
    const vals = args.a.values as Float32Array;
    for (const x of [NaN, Infinity, 1e-40]) {
      const bad = vals.slice();
      bad[0] = x;
      expect((await gpu(MATMUL, a(bad))).reason).toBe(REASONS.nonFinite);
    }
    // 1e-20 · 1e-20 is below 2^-126: the host bound refuses before the GPU runs.
    const tiny = vals.slice();
    tiny[0] = 1e-20;
    const b = { ...args.b, data: (args.b.data as Float32Array).map((x, i) => (i === 0 ? 1e-20 : x)) };
    const sub = await gpu(MATMUL, { ...a(tiny), b });
    expect(sub.reason).toBe(REASONS.subnormal);
    expect(mismatch(sub.outputs.output, js(MATMUL, { ...a(tiny), b }).output)).toBeUndefined();
    const huge = vals.map(() => 3e38);
    const over = await gpu(MATMUL, { ...a(huge), b: { ...args.b, data: (args.b.data as Float32Array).map(() => 4) } });
    expect(over.reason).toBe(REASONS.nonFiniteResult);
  });

  it('hand-computed: the spec example, transposed', async () => {
    const a: CsrData = {
      kind: 'csr',
      batchPointers: Int32Array.from([0, 3]),
      rowPointers: Int32Array.from([0, 2, 3]),
      colIndices: Int32Array.from([0, 2, 1]),
      values: Float32Array.from([1, 2, 3]),
      shape: [2, 3],
      dtype: 'float32',
    };
    const b: DenseData = {
      kind: 'dense',
      data: Float32Array.from([0, 4, 5, 0, 6, 0]),
      shape: [3, 2],
      dtype: 'float32',
    };
    const { outputs, reason } = await gpu(MATMUL, { ...matmulArgs(0, 1, 1, 1, 1, {}), a, b, transpose_output: true });
    expect(reason).toBeUndefined();
    expect(outputs.output.shape).toEqual([2, 2]);
    expect(Array.from((outputs.output as DenseData).data as Float32Array)).toEqual([12, 15, 4, 0]);
  });
});

const BINCOUNT = 'sparse_bincount';

/** A rows × cols SparseTensor of int32 values in [0, range), canonical order, about `density` stored. */
function randomCounts(r: Rng, rows: number, cols: number, density: number, range: number): SparseData {
  const idx: number[] = [];
  const vals: number[] = [];
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++)
      if (r.next() < density) {
        idx.push(i, j);
        vals.push(r.int(range));
      }
  return {
    kind: 'sparse',
    indices: Float64Array.from(idx),
    values: Int32Array.from(vals),
    shape: [rows, cols],
    dtype: 'int32',
  };
}

function withValues(sp: SparseData, values: Int32Array | Float32Array | Float64Array, dtype: string): SparseData {
  return { ...sp, values, dtype: dtype as SparseData['dtype'] };
}

function bincountArgs(values: SparseData, extra: Args = {}): Args {
  return { values, weights: null, axis: 0, minlength: null, maxlength: null, binary_output: false, ...extra };
}

describe('sparse_bincount on webgpu', () => {
  for (const axis of [0, -1])
    it(`int32 counts, int32 weights (wrapping) and float32 weights, axis ${axis}`, async () => {
      const r = rng(400 + axis);
      const values = randomCounts(r, 30, 40, 0.4, 25);
      const n = values.values.length;
      await expectGpuMatchesJs(BINCOUNT, bincountArgs(values, { axis }));
      const iw = new Int32Array(n);
      for (let i = 0; i < n; i++) iw[i] = (r.next() * 2 ** 32) | 0;
      await expectGpuMatchesJs(BINCOUNT, bincountArgs(values, { axis, weights: withValues(values, iw, 'int32') }));
      const fw = floats(r, n);
      await expectGpuMatchesJs(BINCOUNT, bincountArgs(values, { axis, weights: withValues(values, fw, 'float32') }));
      await expectGpuMatchesJs(BINCOUNT, bincountArgs(values, { axis, maxlength: 10, minlength: 30 }));
      await expectGpuMatchesJs(BINCOUNT, bincountArgs(values, { axis, minlength: 60 }));
    });

  it('int32 counts wrap exactly: an int32 weight sum past 2^31', async () => {
    const values: SparseData = {
      kind: 'sparse',
      indices: Float64Array.from([0, 1, 2]),
      values: Int32Array.from([3, 3, 1]),
      shape: [3],
      dtype: 'int32',
    };
    const weights = withValues(values, Int32Array.from([2 ** 31 - 1, 5, -7]), 'int32');
    const out = (await expectGpuMatchesJs(BINCOUNT, bincountArgs(values, { weights }))).output as SparseData;
    expect(Array.from(out.values)).toEqual([-7, (2 ** 31 - 1 + 5) | 0]);
    expect(Array.from(out.indices)).toEqual([1, 3]);
  });

  it('unordered input, int64 values counted into int32 weights, binary_output on the host', async () => {
    const r = rng(402);
    const values = randomCounts(r, 10, 10, 0.5, 7);
    // Reverse the entries: the keys are sorted on the host.
    const n = values.values.length;
    const rev: SparseData = {
      ...values,
      indices: Float64Array.from({ length: 2 * n }, (_, k) => values.indices[2 * (n - 1 - (k >> 1)) + (k & 1)]),
      values: Int32Array.from(values.values as Int32Array).reverse(),
    };
    await expectGpuMatchesJs(BINCOUNT, bincountArgs(rev, { axis: -1 }));
    const big = withValues(rev, BigInt64Array.from(rev.values as Int32Array, BigInt) as never, 'int64');
    const iw = withValues(
      rev,
      Int32Array.from({ length: n }, () => r.int(100)),
      'int32',
    );
    await expectGpuMatchesJs(BINCOUNT, bincountArgs(big, { weights: iw }));
    await expectGpuMatchesJs(BINCOUNT, bincountArgs(rev, { binary_output: true, axis: -1 }), 0);
  });

  it('empty: no values, everything past maxlength', async () => {
    const none: SparseData = {
      kind: 'sparse',
      indices: new Float64Array(0),
      values: new Int32Array(0),
      shape: [4],
      dtype: 'int32',
    };
    await expectGpuMatchesJs(BINCOUNT, bincountArgs(none, { minlength: 3 }), 0);
    const values = randomCounts(rng(403), 5, 5, 0.5, 9);
    await expectGpuMatchesJs(BINCOUNT, bincountArgs(values, { maxlength: 0 }), 0);
  });

  it('float64 weights and int64 counts run on the JS kernels, saying so; float32 screens', async () => {
    const values = randomCounts(rng(404), 6, 6, 0.5, 5);
    const n = values.values.length;
    const f64 = bincountArgs(values, { weights: withValues(values, new Float64Array(n).fill(0.5), 'float64') });
    const d = await gpu(BINCOUNT, f64);
    expect(d.reason).toBe(REASONS.notComputed('float64'));
    expect(d.outputs.output).toEqual(js(BINCOUNT, f64).output);
    const i64 = bincountArgs(
      withValues(values, BigInt64Array.from(values.values as Int32Array, BigInt) as never, 'int64'),
    );
    expect((await gpu(BINCOUNT, i64)).reason).toBe(REASONS.notComputed('int64'));
    const fw = new Float32Array(n).fill(0.25);
    fw[1] = NaN;
    expect((await gpu(BINCOUNT, bincountArgs(values, { weights: withValues(values, fw, 'float32') }))).reason).toBe(
      REASONS.nonFinite,
    );
    // 2^-100 and 1: a sum of them could cancel below 2^-126 on the grid of 2^-123... the bound refuses it.
    fw[1] = 1;
    fw[0] = 2 ** -120;
    const sub = bincountArgs(values, { weights: withValues(values, fw, 'float32') });
    const res = await gpu(BINCOUNT, sub);
    expect(res.reason).toBe(REASONS.subnormal);
    expect(mismatch(res.outputs.output, js(BINCOUNT, sub).output)).toBeUndefined();
  });
});
