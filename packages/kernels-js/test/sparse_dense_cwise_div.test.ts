import { describe, expect, it } from 'vitest';
import { sparseDenseCwiseDiv } from '../src/generated/kernels/sparse_dense_cwise_div.js';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { list } from './helpers.js';

const div = (sp_input: ReturnType<typeof sparse>, d: ReturnType<typeof dense>) =>
  sparseDenseCwiseDiv({ sp_input, dense: d }).output;

describe('sparse_dense_cwise_div kernel', () => {
  it('divides floats with IEEE results for zero divisors', () => {
    const out = div(sparse([[0], [1], [2], [3]], [1, -2, 0, 3], [4], 'float64'), dense([0, 0, 0, 4], [4], 'float64'));
    expect(list(out.values)).toEqual([Infinity, -Infinity, NaN, 0.75]);
  });

  it('truncates integer quotients toward zero', () => {
    const out = div(
      sparse(
        [
          [0, 0],
          [0, 1],
          [1, 0],
          [1, 1],
        ],
        [7, -7, 7, -7],
        [2, 2],
        'int32',
      ),
      dense([2, -2], [2, 1], 'int32'),
    );
    expect(list(out.values)).toEqual([3, -3, -3, 3]);
    const i64 = div(
      sparse([[0], [1], [2]], [-(2n ** 53n) - 3n, 2n ** 63n - 1n, -7n], [3], 'int64'),
      dense([2n, 2n ** 62n, 2n], [3], 'int64'),
    );
    expect(list(i64.values)).toEqual([-(2n ** 52n) - 1n, 1n, -3n]);
  });

  it('wraps MIN / -1 to MIN', () => {
    expect(list(div(sparse([[0]], [-(2 ** 31)], [1], 'int32'), dense([-1], [1], 'int32')).values)).toEqual([
      -(2 ** 31),
    ]);
    expect(list(div(sparse([[0]], [-(2n ** 63n)], [1], 'int64'), dense([-1n], [1], 'int64')).values)).toEqual([
      -(2n ** 63n),
    ]);
  });

  it('throws a KernelError naming the index for an integer division by zero', () => {
    const thrown = (f: () => unknown): Error => {
      try {
        f();
      } catch (e) {
        return e as Error;
      }
      throw new Error('no error thrown');
    };
    const e32 = thrown(() =>
      div(
        sparse(
          [
            [0, 0],
            [1, 2],
          ],
          [4, 5],
          [2, 3],
          'int32',
        ),
        dense([1, 1, 1, 1, 1, 0], [2, 3], 'int32'),
      ),
    );
    expect(e32.name).toBe('KernelError');
    expect(e32.message).toMatch(/integer division by zero.*\[1,2\]/);
    const e64 = thrown(() => div(sparse([[1]], [4n], [2], 'int64'), dense([0n], [], 'int64')));
    expect(e64.name).toBe('KernelError');
    expect(e64.message).toMatch(/integer division by zero.*\[1\]/);
  });

  it('does not divide implicit zeros, so a zero divisor there is fine', () => {
    const out = div(sparse([[1, 1]], [6], [2, 2], 'int32'), dense([0, 0, 0, 4], [2, 2], 'int32'));
    expect(list(out.values)).toEqual([1]);
  });

  it('rounds float32 quotients', () => {
    const out = div(sparse([[0]], [1], [1], 'float32'), dense([3], [1], 'float32'));
    expect(list(out.values)).toEqual([Math.fround(1 / 3)]);
  });
});
