import { describe, expect, it } from 'vitest';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { createGpuBackend, REASONS } from '../src/index.js';
import type { SparseTensorDenseMatmulArgs } from '@sparse/kernel-abi';
import { matmulPlan } from '@sparse/kernel-abi';
import { expectCloseData, runGpu, runJs, valuesOf } from './against-js.js';
import { matmulCases } from './matmul-cases.js';

// Every kernel output and array argument is a texture whose sides the device caps (MAX_TEXTURE_SIZE). The matmul's
// product is computed in tiles within it (a dense operand whose transpose would pass it is read with swapped
// strides, untransposed), softmax's row stats are a 1-D output; any other call that needs a longer
// side runs on the JS kernels, saying so, instead of throwing gpu.js's Error. The limit can be set lower, as a phone's
// would be, so that small calls reach it.

/** A float32 vector of n entries, every position stored. */
const vector = (n: number) =>
  sparse(
    Array.from({ length: n }, (_, i) => [i]),
    Float32Array.from({ length: n }, (_, i) => (i % 7) - 3),
    [n],
    'float32',
  );

describe('the texture size limit of the gpu backend', async () => {
  const desktop = await createGpuBackend({ maxTextureSize: 16384 });
  const small = await createGpuBackend({ maxTextureSize: 64 });

  /** The call ran on the JS kernels, saying which limit stopped it, and gave their result. */
  const pastLimit = (backend: typeof small, op: string, args: Record<string, unknown>) => {
    const got = runGpu(backend, op, args);
    expect(got.delegated, op).toBe(REASONS.textureLimit(backend.maxTextureSize()));
    expect(valuesOf(got.outputs.output), op).toEqual(valuesOf(runJs(op, args).output));
  };

  it('takes the lower of the limit asked for and the device’s', () => {
    expect(small.maxTextureSize()).toBe(64);
    expect(desktop.maxTextureSize()).toBeLessThanOrEqual(16384);
  });

  it('sparse_tensor_dense_matmul of a [20000, 2] sparse operand: 20000 rows of product, in two tiles of ≤ 16384', () => {
    const spA = sparse(
      [
        [0, 0],
        [7, 1],
        [19999, 1],
      ],
      Float32Array.from([1.5, -2, 3]),
      [20000, 2],
      'float32',
    );
    const args = {
      sp_a: spA,
      b: dense(Float32Array.from([2, 5]), [2, 1], 'float32'),
      adjoint_a: false,
      adjoint_b: false,
    };
    const before = desktop.readBacks();
    const got = runGpu(desktop, 'sparse_tensor_dense_matmul', args);
    expect(got.delegated).toBeUndefined();
    expect(desktop.readBacks() - before).toBe(2);
    expect(valuesOf(got.outputs.output)).toEqual(valuesOf(runJs('sparse_tensor_dense_matmul', args).output));
  });

  it('every matmul flavour past the limit in rows, columns and the inner dimension runs on the GPU, in tiles', async () => {
    const tiny = await createGpuBackend({ maxTextureSize: 8 });
    for (const args of matmulCases(9, [20, 12, 10, 11])) {
      const got = runGpu(tiny, 'sparse_tensor_dense_matmul', args);
      expect(got.delegated).toBeUndefined();
      expect(valuesOf(got.outputs.output)).toEqual(valuesOf(runJs('sparse_tensor_dense_matmul', args).output));
    }
    expect(tiny.liveTextures()).toBe(0);
  });

  it('a dense operand whose transpose passes the limit in one side is read as it is, pipelined or not', async () => {
    const limit = 8;
    const backends = [
      await createGpuBackend({ maxTextureSize: limit }),
      await createGpuBackend({ maxTextureSize: limit, pipeline: false }),
    ];
    // The transpose [inner × n] passes the limit in its rows only (inner 12 or 20, n = 6), then in its columns only
    // (inner 7 or 8, n = 11); the product's rows pass it too in the first.
    const cases = [...matmulCases(10, [20, 12, 6, 6]), ...matmulCases(11, [7, 8, 11, 11])];
    for (const backend of backends)
      for (const args of cases) {
        const plan = matmulPlan(args as unknown as SparseTensorDenseMatmulArgs);
        const before = backend.readBacks();
        const got = runGpu(backend, 'sparse_tensor_dense_matmul', args);
        expect(got.delegated).toBeUndefined();
        expectCloseData(got.outputs.output, runJs('sparse_tensor_dense_matmul', args).output);
        // One read-back a tile (two a tile for dense × sparse when not pipelined: the product, then its
        // transpose); never one of a transposed operand.
        const tileCount = Math.ceil(plan.m / limit) * Math.ceil(plan.n / limit);
        const perTile = !backend.pipeline && !plan.sparseFirst ? 2 : 1;
        expect(backend.readBacks() - before).toBe(tileCount * perTile);
        expect(backend.liveTextures()).toBe(0);
      }
  });

  it('a family op whose entries pass a 64 × 64 texture (4097 of them), and not one that fits (4096)', () => {
    pastLimit(small, 'sparse_abs', { sp_input: vector(4097) });
    const fits = runGpu(small, 'sparse_abs', { sp_input: vector(4096) });
    expect(fits.delegated).toBeUndefined();
    expect(valuesOf(fits.outputs.output)).toEqual(valuesOf(runJs('sparse_abs', { sp_input: vector(4096) }).output));
    pastLimit(small, 'sparse_reduce_sum', {
      sp_input: sparse(
        Array.from({ length: 4097 }, (_, i) => [i, 0]),
        Float32Array.from({ length: 4097 }, (_, i) => i % 3),
        [4097, 2],
        'float32',
      ),
      axis: [1],
      keepdims: false,
    });
  });

  it('softmax of more rows than the limit runs on the GPU; softmax and the to-dense scatters past it do not', () => {
    const rows = sparse(
      Array.from({ length: 100 }, (_, i) => [i, 0]),
      Float32Array.from({ length: 100 }, (_, i) => i / 10),
      [100, 3],
      'float32',
    );
    const got = runGpu(small, 'sparse_softmax', { sp_input: rows });
    expect(got.delegated).toBeUndefined();
    expectCloseData(got.outputs.output, runJs('sparse_softmax', { sp_input: rows }).output);
    pastLimit(small, 'sparse_softmax', { sp_input: vector(4097) });
    pastLimit(small, 'sparse_tensor_to_dense', { sp_input: vector(5000), default_value: 0 });
    pastLimit(small, 'sparse_to_dense', {
      sparse_indices: dense(Int32Array.from([3, 4000]), [2], 'int32'),
      output_shape: [5000],
      sparse_values: dense(Float32Array.from([1, 2]), [2], 'float32'),
      default_value: -1,
    });
    expect(small.liveTextures()).toBe(0);
  });
});
