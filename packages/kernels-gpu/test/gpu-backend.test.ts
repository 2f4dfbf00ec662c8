import { describe, expect, it } from 'vitest';
import { kernels as jsKernels } from '@sparse/kernels-js';
import { Runtime, SparseTensor, createRuntime, listOps, tensor } from '@sparse/runtime';
import { createGpuBackend, DELEGATED_OPS, HAND_WRITTEN, noWebGlMessage, sizeClass } from '../src/index.js';
import { GPU_FAMILIES } from '../src/generated/families.js';
import { FAMILY_OPS } from '../src/generated/family-ops.js';

const close = (got: ArrayLike<number>, want: ArrayLike<number>) => {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++)
    expect(Math.abs(got[i] - want[i]), `[${i}] ${got[i]} vs ${want[i]}`).toBeLessThanOrEqual(
      1e-6 + 1e-5 * Math.abs(want[i]),
    );
};
const valuesOf = (t: unknown) =>
  Array.from(((t as SparseTensor).values ?? (t as { data: Float32Array }).data) as Float32Array);

describe('the gpu backend (gpu.js on WebGL)', async () => {
  const backend = await createGpuBackend();
  const gpu = new Runtime(backend as never);
  const js = await createRuntime({ backend: 'js' });
  const st = new SparseTensor(
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
    for (const op of listOps()) expect(typeof backend.kernels[op], op).toBe('function');
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
    const f64 = new SparseTensor([[0], [1]], [0.1, -0.2], [2], 'float64');
    const r = gpu.runWithReport('sparse_abs', { sp_input: f64 });
    expect(r.delegated).toMatch(/float32 \(and int32 where float32 is exact\); float64/);
    expect(valuesOf(r.outputs.output)).toEqual([0.1, 0.2]);
    expect(
      gpu.runWithReport('sparse_neg', { sp_input: new SparseTensor([[0]], [7n], [2], 'int64') }).delegated,
    ).toMatch(/; int64 values ran on the JS kernels/);
    expect(gpu.runWithReport('sparse_reorder', { sp_input: st }).delegated).toMatch(
      /has no GPU kernel \(its spec runs it on the JS kernels here\)/,
    );
  });

  it('delegates float32 values WebGL does not compute as IEEE does: inf, nan, subnormals; reruns a nan result', () => {
    const tiny = new SparseTensor([[0], [1]], [-1e-45, 2], [2], 'float32');
    const r = gpu.runWithReport('sparse_sqrt', { sp_input: tiny });
    expect(r.delegated).toMatch(/subnormal/);
    expect(Number.isNaN(valuesOf(r.outputs.output)[0])).toBe(true);
    expect(
      gpu.runWithReport('sparse_abs', { sp_input: new SparseTensor([[0]], [Infinity], [1], 'float32') }).delegated,
    ).toMatch(/inf, nan/);
    const neg = gpu.runWithReport('sparse_sqrt', { sp_input: new SparseTensor([[0]], [-4], [1], 'float32') });
    expect(neg.delegated).toMatch(/rerun on the JS kernels/);
    expect(Number.isNaN(valuesOf(neg.outputs.output)[0])).toBe(true);
  });

  it('runs float32 map, cwise, merge, reduce and matmul on the GPU, equal to the JS results', () => {
    const dense = tensor([[2], [5], [-1]], 'float32');
    const b = tensor(
      Float32Array.from({ length: 3 * 4 }, (_, i) => i / 3 - 1),
      'float32',
      [3, 4],
    );
    const cases: [string, Record<string, unknown>][] = [
      ['sparse_abs', { sp_input: st }],
      ['sparse_square', { sp_input: st }],
      ['sparse_dense_cwise_mul', { sp_input: st, dense }],
      ['sparse_dense_cwise_div', { sp_input: st, dense }],
      ['sparse_add', { a: st, b: st, thresh: 0 }],
      [
        'sparse_add',
        {
          a: tensor(
            Float32Array.from({ length: 9 }, (_, i) => i - 4),
            'float32',
            [3, 3],
          ),
          b: st,
          thresh: 0,
        },
      ],
      [
        'sparse_maximum',
        {
          sp_a: st,
          sp_b: new SparseTensor(
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
      ['sparse_tensor_dense_matmul', { sp_a: st, b }],
      [
        'sparse_tensor_dense_matmul',
        {
          sp_a: st,
          b: tensor(
            Float32Array.from({ length: 12 }, (_, i) => i - 5),
            'float32',
            [4, 3],
          ),
          adjoint_a: true,
          adjoint_b: true,
        },
      ],
      [
        'sparse_tensor_dense_matmul',
        {
          sp_a: tensor(
            Float32Array.from({ length: 6 }, (_, i) => i * 0.5),
            'float32',
            [2, 3],
          ),
          b: st,
        },
      ],
    ];
    for (const [op, args] of cases) {
      const got = gpu.runWithReport(op, args);
      expect(got.delegated, op).toBeUndefined();
      const want = js.runWithReport(op, args).outputs.output;
      close(valuesOf(got.outputs.output), valuesOf(want));
    }
  });

  it('compiles a kernel once per size class and reuses it', () => {
    const mk = (n: number) =>
      new SparseTensor(
        Array.from({ length: n }, (_, i) => [i]),
        Float32Array.from({ length: n }, (_, i) => i - 3),
        [n],
        'float32',
      );
    gpu.run('sparse_neg', { sp_input: mk(20) });
    const before = backend.kernelsCompiled();
    expect(sizeClass(20)).toBe(sizeClass(200));
    gpu.run('sparse_neg', { sp_input: mk(20) });
    const r = gpu.run('sparse_neg', { sp_input: mk(200) });
    expect(backend.kernelsCompiled()).toBe(before);
    expect(valuesOf(r.output).slice(0, 4)).toEqual([3, 2, 1, -0]);
  });

  it('says clearly when no WebGL is available, and does not fall back to CPU mode silently', async () => {
    await expect(createGpuBackend({ mode: 'no-such-mode' })).rejects.toThrow(/No WebGL is available/);
    expect(noWebGlMessage(true)).toMatch(/optional 'gl' package.*xvfb-run -a/);
    expect(noWebGlMessage(false)).toMatch(/WebGL2/);
    const cpu = await createGpuBackend({ mode: 'no-such-mode', allowCpuMode: true });
    expect(cpu.mode).toBe('cpu');
  });
});
