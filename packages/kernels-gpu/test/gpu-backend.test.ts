import { describe, expect, it } from 'vitest';
import { kernels as jsKernels } from '@sparse/kernels-js';
import { dense, scalar, sparse } from '@sparse/test-kit/plain-data';
import { createGpuBackend, DELEGATED_OPS, HAND_WRITTEN, noWebGlMessage, sizeClass } from '../src/index.js';
import { GPU_FAMILIES } from '../src/generated/families.js';
import { FAMILY_OPS } from '../src/generated/family-ops.js';
import { expectCloseData, runGpu, runJs, valuesOf } from './against-js.js';

describe('the gpu backend (gpu.js on WebGL)', async () => {
  const backend = await createGpuBackend();
  const st = sparse(
    [
      [0, 0],
      [0, 2],
      [1, 1],
      [2, 0],
    ],
    [1.5, -2, 3, 0.25],
    [3, 3],
    'float32',
  );

  it('runs on real WebGL, not gpu.js CPU mode', () => {
    expect(['headlessgl', 'webgl2', 'webgl']).toContain(backend.mode);
  });

  it('has every op: on the GPU, or declared as delegated — and declares nothing it runs itself', () => {
    for (const op of Object.keys(jsKernels)) expect(typeof backend.kernels[op], op).toBe('function');
    expect(Object.keys(backend.kernels).sort()).toEqual(Object.keys(jsKernels).sort());
    for (const op of Object.keys(HAND_WRITTEN)) expect(DELEGATED_OPS[op]).toBeUndefined();
    for (const op of ['sparse_abs', 'sparse_dense_cwise_mul', 'sparse_add', 'sparse_reduce_sum']) {
      expect(GPU_FAMILIES[op], op).toBeDefined();
      expect(DELEGATED_OPS[op], op).toBeUndefined();
    }
    for (const op of Object.keys(FAMILY_OPS))
      expect(DELEGATED_OPS[op], `${op} is generated for the GPU`).toBeUndefined();
    for (const reason of Object.values(DELEGATED_OPS)) expect(reason).toMatch(/JS kernels/);
  });

  it('delegates float64 and int64 values, saying so, never rounding them (int32: see int32.test.ts)', () => {
    const f64 = sparse([[0], [1]], [0.1, -0.2], [2], 'float64');
    const r = runGpu(backend, 'sparse_abs', { sp_input: f64 });
    expect(r.delegated).toMatch(/float32 \(and int32 where float32 is exact\); float64/);
    expect(valuesOf(r.outputs.output)).toEqual([0.1, 0.2]);
    expect(runGpu(backend, 'sparse_neg', { sp_input: sparse([[0]], [7n], [2], 'int64') }).delegated).toMatch(
      /; int64 values ran on the JS kernels/,
    );
    expect(runGpu(backend, 'sparse_reorder', { sp_input: st }).delegated).toMatch(
      /has no GPU kernel \(its spec runs it on the JS kernels here\)/,
    );
  });

  it('delegates float32 values WebGL does not compute as IEEE does: inf, nan, subnormals; reruns a nan result', () => {
    const tiny = sparse([[0], [1]], [-1e-45, 2], [2], 'float32');
    const r = runGpu(backend, 'sparse_sqrt', { sp_input: tiny });
    expect(r.delegated).toMatch(/subnormal/);
    expect(Number.isNaN(valuesOf(r.outputs.output)[0])).toBe(true);
    expect(runGpu(backend, 'sparse_abs', { sp_input: sparse([[0]], [Infinity], [1], 'float32') }).delegated).toMatch(
      /inf, nan/,
    );
    const neg = runGpu(backend, 'sparse_sqrt', { sp_input: sparse([[0]], [-4], [1], 'float32') });
    expect(neg.delegated).toMatch(/rerun on the JS kernels/);
    expect(Number.isNaN(valuesOf(neg.outputs.output)[0])).toBe(true);
  });

  it('runs float32 map, cwise, merge, reduce and matmul on the GPU, equal to the JS results', () => {
    const column = dense([2, 5, -1], [3, 1], 'float32');
    const b = dense(
      Float32Array.from({ length: 3 * 4 }, (_, i) => i / 3 - 1),
      [3, 4],
      'float32',
    );
    const zero = scalar('float32', 0);
    const cases: [string, Record<string, unknown>][] = [
      ['sparse_abs', { sp_input: st }],
      ['sparse_square', { sp_input: st }],
      ['sparse_dense_cwise_mul', { sp_input: st, dense: column }],
      ['sparse_dense_cwise_div', { sp_input: st, dense: column }],
      ['sparse_add', { a: st, b: st, thresh: zero }],
      [
        'sparse_add',
        {
          a: dense(
            Float32Array.from({ length: 9 }, (_, i) => i - 4),
            [3, 3],
            'float32',
          ),
          b: st,
          thresh: zero,
        },
      ],
      [
        'sparse_maximum',
        {
          sp_a: st,
          sp_b: sparse(
            [
              [0, 0],
              [1, 2],
            ],
            [2.5, -1],
            [3, 3],
            'float32',
          ),
        },
      ],
      ['sparse_reduce_sum', { sp_input: st, axis: [1], keepdims: false }],
      ['sparse_tensor_dense_matmul', { sp_a: st, b, adjoint_a: false, adjoint_b: false }],
      [
        'sparse_tensor_dense_matmul',
        {
          sp_a: st,
          b: dense(
            Float32Array.from({ length: 12 }, (_, i) => i - 5),
            [4, 3],
            'float32',
          ),
          adjoint_a: true,
          adjoint_b: true,
        },
      ],
      [
        'sparse_tensor_dense_matmul',
        {
          sp_a: dense(
            Float32Array.from({ length: 6 }, (_, i) => i * 0.5),
            [2, 3],
            'float32',
          ),
          b: st,
          adjoint_a: false,
          adjoint_b: false,
        },
      ],
    ];
    for (const [op, args] of cases) {
      const got = runGpu(backend, op, args);
      expect(got.delegated, op).toBeUndefined();
      expectCloseData(got.outputs.output, runJs(op, args).output);
    }
  });

  it('compiles a kernel once per size class and reuses it', () => {
    const mk = (n: number) =>
      sparse(
        Array.from({ length: n }, (_, i) => [i]),
        Float32Array.from({ length: n }, (_, i) => i - 3),
        [n],
        'float32',
      );
    runGpu(backend, 'sparse_neg', { sp_input: mk(20) });
    const before = backend.kernelsCompiled();
    expect(sizeClass(20)).toBe(sizeClass(200));
    runGpu(backend, 'sparse_neg', { sp_input: mk(20) });
    const r = runGpu(backend, 'sparse_neg', { sp_input: mk(200) });
    expect(backend.kernelsCompiled()).toBe(before);
    expect(valuesOf(r.outputs.output).slice(0, 4)).toEqual([3, 2, 1, -0]);
  });

  it('says clearly when no WebGL is available, and does not fall back to CPU mode silently', async () => {
    await expect(createGpuBackend({ mode: 'no-such-mode' })).rejects.toThrow(/No WebGL is available/);
    expect(noWebGlMessage(true)).toMatch(/optional 'gl' package.*xvfb-run -a/);
    expect(noWebGlMessage(false)).toMatch(/WebGL2/);
    const cpu = await createGpuBackend({ mode: 'no-such-mode', allowCpuMode: true });
    expect(cpu.mode).toBe('cpu');
  });
});
