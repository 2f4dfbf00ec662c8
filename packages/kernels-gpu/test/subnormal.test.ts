import { describe, expect, it } from 'vitest';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { createGpuBackend, REASONS } from '../src/index.js';
import { expectClose, runGpu, runJs, valuesOf } from './against-js.js';

// GPUs flush subnormal float32 values (nonzero, below 2^-126) to zero, so a call that could compute one runs on the
// JS kernels (delegation.ts, subnormal-bound.ts); a call that cannot stays on the GPU.

const MIN_NORMAL = 2 ** -126;
const f32 = (values: number[]) => Float32Array.from(values);
const vector = (values: number[]) =>
  sparse(
    values.map((_, i) => [i]),
    f32(values),
    [values.length],
    'float32',
  );
const matmul = (a: number, b: number) => ({
  sp_a: sparse([[0, 0]], f32([a]), [1, 1], 'float32'),
  b: dense(f32([b]), [1, 1], 'float32'),
  adjoint_a: false,
  adjoint_b: false,
});

describe('subnormal float32 results on the gpu backend', async () => {
  const backend = await createGpuBackend();

  /**
   * The GPU's result, delegated as subnormal, is the JS kernel's exactly; and some value of it is subnormal (unless
   * only a step on the way is).
   */
  const delegatedAsSubnormal = (op: string, args: Record<string, unknown>, subnormalResult = true) => {
    const got = runGpu(backend, op, args);
    expect(got.delegated, op).toBe(REASONS.subnormal);
    const want = valuesOf(runJs(op, args).output);
    expect(valuesOf(got.outputs.output), op).toEqual(want);
    const subnormal = want.some((v) => v !== 0 && Math.abs(v) < MIN_NORMAL);
    expect(subnormal, `${op} gives a subnormal: ${want}`).toBe(subnormalResult);
  };

  it('the five of issue 15: add, matmul, reduce_sum, softmax, cwise mul give the JS result, delegated', () => {
    delegatedAsSubnormal('sparse_add', { a: vector([1.5e-38]), b: vector([-1.4e-38]), thresh: 0 });
    delegatedAsSubnormal('sparse_tensor_dense_matmul', matmul(1e-20, 1e-20));
    delegatedAsSubnormal('sparse_reduce_sum', { sp_input: vector([1.5e-38, -1.4e-38]), axis: null, keepdims: false });
    delegatedAsSubnormal('sparse_softmax', { sp_input: vector([0, -100]) });
    delegatedAsSubnormal('sparse_dense_cwise_mul', {
      sp_input: vector([1e-20]),
      dense: dense(f32([1e-20]), [1], 'float32'),
    });
  });

  it('bounds every step: a long product of halves, a division by a huge value, a power', () => {
    delegatedAsSubnormal('sparse_reduce_prod', { sp_input: vector(Array(130).fill(0.5)), axis: null, keepdims: false });
    delegatedAsSubnormal('sparse_dense_cwise_div', {
      sp_input: vector([1]),
      dense: dense(f32([2 ** 127]), [1], 'float32'),
    });
    delegatedAsSubnormal('sparse_dense_cwise_pow', {
      sp_input: vector([0.5]),
      dense: dense(f32([130]), [1], 'float32'),
    });
    // The sum is normal, but a step on the way (1.5e-38 − 1.4e-38) is not: flushed, the GPU's sum would be 2e-38.
    delegatedAsSubnormal(
      'sparse_reduce_sum',
      { sp_input: vector([1.5e-38, -1.4e-38, 2e-38]), axis: null, keepdims: false },
      false,
    );
  });

  it('runs on the GPU what cannot reach the subnormal range: + − × exactly as the JS kernels, exp and ÷ close', () => {
    const onGpu = (op: string, args: Record<string, unknown>, exact = true) => {
      const got = runGpu(backend, op, args);
      expect(got.delegated, op).toBeUndefined();
      const want = valuesOf(runJs(op, args).output);
      if (exact) expect(valuesOf(got.outputs.output), op).toEqual(want);
      else expectClose(valuesOf(got.outputs.output), want);
    };
    // products down to 2^-126, the smallest normal; summed, down to 2^-103 (see below)
    onGpu('sparse_tensor_dense_matmul', matmul(2 ** -51, -(2 ** -52)));
    onGpu('sparse_dense_cwise_mul', { sp_input: vector([2 ** -63, 3]), dense: dense(f32([2 ** -63]), [1], 'float32') });
    onGpu('sparse_square', { sp_input: vector([2 ** -63, -1.5]) });
    // sums of values down to 2^-103, whose cancelling sums are multiples of 2^-126
    const justAbove = 2 ** -103 * (1 + 2 ** -23);
    onGpu('sparse_add', { a: vector([2 ** -103, 1]), b: vector([-justAbove, 2]), thresh: 0 });
    onGpu('sparse_reduce_sum', { sp_input: vector([2 ** -103, -justAbove, 1e-30]), axis: null, keepdims: false });
    // softmax where every exp(x − max) is normal, or 0 on both (a masked logit)
    onGpu('sparse_softmax', { sp_input: vector([0, -80, 3]) }, false);
    onGpu('sparse_softmax', { sp_input: vector([0, -1e9, 3]) }, false);
    onGpu(
      'sparse_dense_cwise_div',
      { sp_input: vector([1, -3]), dense: dense(f32([2 ** 100]), [1], 'float32') },
      false,
    );
  });
});
