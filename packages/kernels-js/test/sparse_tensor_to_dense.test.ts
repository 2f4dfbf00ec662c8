import { describe, expect, it } from 'vitest';
import { sparseTensorToDense } from '../src/kernels/sparse_tensor_to_dense.js';
import { sparse } from '@sparse/test-kit/plain-data';
import { list } from './helpers.js';

const run = (
  sp: ReturnType<typeof sparse>,
  default_value: number | bigint | boolean | string,
  validate_indices = true,
) => sparseTensorToDense({ sp_input: sp, default_value, validate_indices }).output;

describe('sparse_tensor_to_dense kernel', () => {
  it('places values and fills the default (seed 003 strings)', () => {
    const out = run(
      sparse(
        [
          [0, 1],
          [0, 3],
          [2, 0],
        ],
        ['a', 'b', 'c'],
        [3, 5],
        'string',
      ),
      'x',
    );
    expect(out.shape).toEqual([3, 5]);
    expect(out.data).toEqual(['x', 'a', 'x', 'b', 'x', 'x', 'x', 'x', 'x', 'x', 'c', 'x', 'x', 'x', 'x']);
  });

  it('fills bool defaults as 0/1 bytes', () => {
    const f = run(sparse([[1]], [true], [3], 'bool'), false);
    expect(f.data).toBeInstanceOf(Uint8Array);
    expect(list(f.data)).toEqual([0, 1, 0]);
    const t = run(sparse([[1]], [false], [3], 'bool'), true);
    expect(list(t.data)).toEqual([1, 0, 1]);
  });

  it('keeps int64 values and defaults beyond 2^53', () => {
    const big = 2n ** 53n + 1n;
    const out = run(sparse([[0], [2]], [big, -big], [4], 'int64'), 2n ** 63n - 1n);
    expect(out.data).toBeInstanceOf(BigInt64Array);
    expect(list(out.data)).toEqual([big, 2n ** 63n - 1n, -big, 2n ** 63n - 1n]);
  });

  it('writes rank-3 indices at their row-major offsets', () => {
    const out = run(
      sparse(
        [
          [0, 0, 1],
          [0, 2, 0],
          [1, 1, 1],
        ],
        [1, 2, 3],
        [2, 3, 2],
        'int32',
      ),
      0,
    );
    expect(list(out.data)).toEqual([0, 1, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0]);
  });

  it('takes unordered indices and lets the last of repeated indices win without validation', () => {
    const out = run(
      sparse(
        [
          [0, 1],
          [1, 0],
          [0, 1],
          [1, 1],
        ],
        [5, 6, 7, 8],
        [2, 2],
        'float64',
      ),
      0,
      false,
    );
    expect(list(out.data)).toEqual([0, 7, 6, 8]);
  });

  it('handles empty tensors, zero-sized shapes and rank 0', () => {
    expect(list(run(sparse([], [], [2, 2], 'float32'), -1.5).data)).toEqual([-1.5, -1.5, -1.5, -1.5]);
    const zero = run(sparse([], [], [0, 4], 'int32'), 0);
    expect(zero.shape).toEqual([0, 4]);
    expect(zero.data.length).toBe(0);
    const scalar = run(sparse([[]], [2.5], [], 'float32'), 0);
    expect(scalar.shape).toEqual([]);
    expect(list(scalar.data)).toEqual([2.5]);
    expect(list(run(sparse([], [], [], 'int32'), 9).data)).toEqual([9]);
  });

  it('rounds a float32 default to float32 and does not alias the input shape', () => {
    const sp = sparse([[0]], [1], [2], 'float32');
    const out = run(sp, 0.1);
    expect(out.data).toBeInstanceOf(Float32Array);
    expect(list(out.data)).toEqual([1, Math.fround(0.1)]);
    expect(out.shape).not.toBe(sp.shape);
  });
});
