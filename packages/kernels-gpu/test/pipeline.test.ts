import { afterAll, describe, expect, it } from 'vitest';
import { GPU } from 'gpu.js';
import { Runtime, SparseTensor, createRuntime, tensor } from '@sparse/runtime';
import { createGpuBackend, GpuContext } from '../src/index.js';
import { quarter, rng, rowsTensor, type Rng } from './random.js';

type Outputs = { outputs: Record<string, unknown>; delegated?: string };
const valuesOf = (t: unknown) =>
  Array.from(((t as SparseTensor).values ?? (t as { data: Float32Array }).data) as Float32Array);
const close = (got: ArrayLike<number>, want: ArrayLike<number>) => {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++)
    expect(Math.abs(got[i] - want[i]), `[${i}] ${got[i]} vs ${want[i]}`).toBeLessThanOrEqual(
      1e-6 + 1e-5 * Math.abs(want[i]),
    );
};

/** A [p × q] float32 SparseTensor in random order with repeated indices (they add up in a matmul); row 5 is longer than 256. */
function matmulSparse(r: Rng, p: number, q: number): SparseTensor {
  const idx: number[][] = [];
  for (let c = 0; c < q; c++) idx.push([5, c]);
  idx.push([0, 1], [p - 1, q - 1], [0, 1]);
  for (let i = 0; i < 150; i++) idx.push([r.int(p), r.int(q)]);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return new SparseTensor(idx, Float32Array.from(idx, quarter(r)), [p, q], 'float32');
}
const denseOf = (r: Rng, rows: number, cols: number) =>
  tensor(Float32Array.from({ length: rows * cols }, quarter(r)), 'float32', [rows, cols]);

/** Every matmul flavour: sparse × dense and dense × sparse, each with the four adjoint combinations. */
function matmulCases(seed: number): Record<string, unknown>[] {
  const r = rng(seed);
  const [p, q, m, n] = [37, 300, 19, 23];
  const s = matmulSparse(r, p, q);
  const cases: Record<string, unknown>[] = [];
  for (const adjoint_a of [false, true]) {
    for (const adjoint_b of [false, true]) {
      // Sparse first: the inner dimension is op(S)'s second.
      const inner = adjoint_a ? p : q;
      cases.push({ sp_a: s, b: adjoint_b ? denseOf(r, n, inner) : denseOf(r, inner, n), adjoint_a, adjoint_b });
      // Dense first (dense [m × inner] after its adjoint): the inner dimension is op(S)'s first.
      const inner2 = adjoint_b ? q : p;
      cases.push({ sp_a: adjoint_a ? denseOf(r, inner2, m) : denseOf(r, m, inner2), b: s, adjoint_a, adjoint_b });
    }
  }
  return cases;
}

describe('pipelined GPU stages', async () => {
  const backend = await createGpuBackend();
  const flat = await createGpuBackend({ pipeline: false });
  const gpu = new Runtime(backend as never);
  const gpuFlat = new Runtime(flat as never);
  const js = await createRuntime({ backend: 'js' });
  afterAll(() => {
    backend.destroy();
    flat.destroy();
  });
  const onGpu = (rt: Runtime, op: string, args: Record<string, unknown>) => {
    const r = rt.runWithReport(op, args) as Outputs;
    expect(r.delegated, `${op} delegated: ${r.delegated}`).toBeUndefined();
    return r.outputs.output;
  };

  it('is on by default and can be turned off', () => {
    expect(backend.pipeline).toBe(true);
    expect(flat.pipeline).toBe(false);
  });

  it('matmul: every adjoint flag, sparse × dense and dense × sparse, equal to the JS kernel', () => {
    for (const args of matmulCases(4)) {
      const got = onGpu(gpu, 'sparse_tensor_dense_matmul', args);
      const want = js.run('sparse_tensor_dense_matmul', args).output;
      expect((got as { shape: number[] }).shape).toEqual((want as { shape: number[] }).shape);
      close(valuesOf(got), valuesOf(want));
    }
  });

  it('pipelined and read-back stages give identical results; pipelining reads back once per call', () => {
    const r = rng(5);
    const soft = { sp_input: rowsTensor(r, 2, [1, 300, 4, 1, 40], 512, () => (r.next() - 0.5) * 30) };
    const calls: [string, Record<string, unknown>, number][] = [
      ['sparse_softmax', soft, 2],
      ...matmulCases(6).map((args): [string, Record<string, unknown>, number] => {
        const sparseFirst = (args.sp_a as { indexData?: unknown }).indexData !== undefined;
        // Stages: a dense operand transposed (sparse first with adjoint_b; dense first without adjoint_a), the
        // product, its transpose (dense first).
        const stages = sparseFirst ? (args.adjoint_b ? 2 : 1) : args.adjoint_a ? 2 : 3;
        return ['sparse_tensor_dense_matmul', args, stages];
      }),
    ];
    for (const [op, args, stages] of calls) {
      const [b0, f0] = [backend.readBacks(), flat.readBacks()];
      const piped = valuesOf(onGpu(gpu, op, args));
      const unpiped = valuesOf(onGpu(gpuFlat, op, args));
      expect(piped, op).toEqual(unpiped);
      expect(backend.readBacks() - b0, op).toBe(1);
      expect(flat.readBacks() - f0, op).toBe(stages);
      expect(backend.liveTextures()).toBe(0);
      expect(flat.liveTextures()).toBe(0);
    }
  });

  it('textures are neither leaked nor clobbered across calls; a size class seen compiles nothing', () => {
    const r = rng(7);
    const mk = () => rowsTensor(r, 2, [1, 200, 7, 130, 1], 400, () => (r.next() - 0.5) * 20);
    const [a, b] = [mk(), mk()];
    const first = onGpu(gpu, 'sparse_softmax', { sp_input: a });
    const firstValues = valuesOf(first);
    const compiled = backend.kernelsCompiled();
    const second = onGpu(gpu, 'sparse_softmax', { sp_input: b });
    expect(backend.kernelsCompiled()).toBe(compiled);
    expect(valuesOf(first)).toEqual(firstValues);
    close(firstValues, valuesOf(js.run('sparse_softmax', { sp_input: a }).output));
    close(valuesOf(second), valuesOf(js.run('sparse_softmax', { sp_input: b }).output));
    // The same for dense × sparse (three stages, two of them kept on the GPU).
    const m1 = matmulCases(8)[1];
    const s1 = m1.b as SparseTensor;
    const d1 = m1.sp_a as { data: Float32Array; shape: number[] };
    // The same structure (so the same loop class), other values.
    const m2 = {
      ...m1,
      sp_a: tensor(
        d1.data.map((v) => 1 - v),
        'float32',
        d1.shape,
      ),
      b: new SparseTensor(
        s1.indexData,
        (s1.values as Float32Array).map((v) => v / 2 + 1),
        s1.denseShape,
        'float32',
      ),
    };
    onGpu(gpu, 'sparse_tensor_dense_matmul', m1);
    const before = backend.kernelsCompiled();
    close(
      valuesOf(onGpu(gpu, 'sparse_tensor_dense_matmul', m2)),
      valuesOf(js.run('sparse_tensor_dense_matmul', m2).output),
    );
    expect(backend.kernelsCompiled()).toBe(before);
    expect(backend.liveTextures()).toBe(0);
  });

  it('a staged texture keeps its values while its kernel runs again, resized within its class; release frees it', () => {
    const ctx = new GpuContext(new GPU({ mode: 'headlessgl' }));
    try {
      const TWICE = 'function (a) { return a[this.thread.x] * 2; }';
      const COPY = 'function (t) { return t[this.thread.x]; }';
      const xs = [
        Float32Array.from([1, 2, 3, 4, 5]),
        Float32Array.from([10, 20, 30, 40, 50]),
        Float32Array.from([7, 6, 5, 4, 3, 2, 1]),
      ];
      const staged = xs.map((x) => ctx.stage('twice', TWICE, x.length, [x]));
      expect(ctx.liveTextures).toBe(3);
      staged.forEach((t, i) =>
        expect(Array.from(ctx.run('copy', COPY, xs[i].length, [t]))).toEqual(Array.from(xs[i], (v) => v * 2)),
      );
      ctx.release(...staged, ...staged);
      expect(ctx.liveTextures).toBe(0);
      expect(ctx.compiled).toBe(2);
    } finally {
      ctx.destroy();
    }
  });
});
