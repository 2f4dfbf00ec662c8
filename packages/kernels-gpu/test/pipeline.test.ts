import { afterAll, describe, expect, it } from 'vitest';
import { GPU } from 'gpu.js';
import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { createGpuBackend, GpuContext, type GpuBackend } from '../src/index.js';
import { expectCloseData, runGpu, runJs, valuesOf } from './against-js.js';
import { matmulCases } from './matmul-cases.js';
import { rng, rowsTensor } from './random.js';

describe('pipelined GPU stages', async () => {
  const backend = await createGpuBackend();
  const flat = await createGpuBackend({ pipeline: false });
  afterAll(() => {
    backend.destroy();
    flat.destroy();
  });
  const onGpu = (on: GpuBackend, op: string, args: Record<string, unknown>) => {
    const r = runGpu(on, op, args);
    expect(r.delegated, `${op} delegated: ${r.delegated}`).toBeUndefined();
    return r.outputs.output;
  };

  it('is on by default and can be turned off', () => {
    expect(backend.pipeline).toBe(true);
    expect(flat.pipeline).toBe(false);
  });

  it('matmul: every adjoint flag, sparse × dense and dense × sparse, equal to the JS kernel', () => {
    for (const args of matmulCases(4)) {
      expectCloseData(
        onGpu(backend, 'sparse_tensor_dense_matmul', args),
        runJs('sparse_tensor_dense_matmul', args).output,
      );
    }
  });

  it('pipelined and read-back stages give identical results; pipelining reads back once per call', () => {
    const r = rng(5);
    const soft = { sp_input: rowsTensor(r, 2, [1, 300, 4, 1, 40], 512, () => (r.next() - 0.5) * 30) };
    const calls: [string, Record<string, unknown>, number][] = [
      ['sparse_softmax', soft, 2],
      ...matmulCases(6).map((args): [string, Record<string, unknown>, number] => {
        const sparseFirst = (args.sp_a as SparseData | DenseData).kind === 'sparse';
        // Stages: a dense operand transposed (sparse first with adjoint_b; dense first without adjoint_a), the
        // product, its transpose (dense first).
        const stages = sparseFirst ? (args.adjoint_b ? 2 : 1) : args.adjoint_a ? 2 : 3;
        return ['sparse_tensor_dense_matmul', args, stages];
      }),
    ];
    for (const [op, args, stages] of calls) {
      const [b0, f0] = [backend.readBacks(), flat.readBacks()];
      const piped = valuesOf(onGpu(backend, op, args));
      const unpiped = valuesOf(onGpu(flat, op, args));
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
    const first = onGpu(backend, 'sparse_softmax', { sp_input: a });
    const firstValues = valuesOf(first);
    const compiled = backend.kernelsCompiled();
    const second = onGpu(backend, 'sparse_softmax', { sp_input: b });
    expect(backend.kernelsCompiled()).toBe(compiled);
    expect(valuesOf(first)).toEqual(firstValues);
    expectCloseData(first, runJs('sparse_softmax', { sp_input: a }).output);
    expectCloseData(second, runJs('sparse_softmax', { sp_input: b }).output);
    // The same for dense × sparse (three stages, two of them kept on the GPU).
    const m1 = matmulCases(8)[1];
    const s1 = m1.b as SparseData;
    const d1 = m1.sp_a as DenseData;
    // The same structure (so the same loop class), other values.
    const m2 = {
      ...m1,
      sp_a: dense(
        (d1.data as Float32Array).map((v) => 1 - v),
        d1.shape,
        'float32',
      ),
      b: sparse(
        s1.indices,
        (s1.values as Float32Array).map((v) => v / 2 + 1),
        s1.shape,
        'float32',
      ),
    };
    onGpu(backend, 'sparse_tensor_dense_matmul', m1);
    const before = backend.kernelsCompiled();
    expectCloseData(onGpu(backend, 'sparse_tensor_dense_matmul', m2), runJs('sparse_tensor_dense_matmul', m2).output);
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
