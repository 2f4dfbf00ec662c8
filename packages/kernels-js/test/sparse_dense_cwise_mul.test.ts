import { describe, expect, it } from 'vitest';
import { sparseDenseCwiseMul } from '../src/generated/kernels/sparse_dense_cwise_mul.js';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { list, rows } from './helpers.js';

const mul = (sp_input: ReturnType<typeof sparse>, d: ReturnType<typeof dense>) =>
  sparseDenseCwiseMul({ sp_input, dense: d }).output;

describe('sparse_dense_cwise_mul kernel', () => {
  it('multiplies stored entries only; implicit zeros ignore inf and nan', () => {
    const out = mul(
      sparse(
        [
          [0, 1],
          [1, 0],
        ],
        [2, 3],
        [2, 2],
        'float64',
      ),
      dense([Infinity, 0.5, -1, NaN], [2, 2], 'float64'),
    );
    expect(rows(out)).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(list(out.values)).toEqual([1, -3]);
    const stored = mul(sparse([[0]], [0], [2], 'float32'), dense([Infinity, 1], [2], 'float32'));
    expect(list(stored.values)).toEqual([NaN]);
  });

  it('keeps the input order of unordered indices and copies them', () => {
    const sp = sparse(
      [
        [1, 1],
        [0, 0],
        [1, 0],
      ],
      [1, 2, 3],
      [2, 2],
      'int32',
    );
    const out = mul(sp, dense([10, 20, 30, 40], [2, 2], 'int32'));
    expect(rows(out)).toEqual([
      [1, 1],
      [0, 0],
      [1, 0],
    ]);
    expect(list(out.values)).toEqual([40, 20, 90]);
    expect(out.indices).not.toBe(sp.indices);
  });

  it('broadcasts a scalar, a row, a column and a lower-rank dense tensor', () => {
    const sp = sparse(
      [
        [0, 0, 1],
        [0, 2, 0],
        [1, 1, 1],
        [1, 2, 0],
      ],
      [1, 2, 3, 4],
      [2, 3, 2],
      'float64',
    );
    expect(list(mul(sp, dense([10], [], 'float64')).values)).toEqual([10, 20, 30, 40]);
    // [2]: the last dim.
    expect(list(mul(sp, dense([10, 100], [2], 'float64')).values)).toEqual([100, 20, 300, 40]);
    // [3, 1]: the middle dim.
    expect(list(mul(sp, dense([1, 10, 100], [3, 1], 'float64')).values)).toEqual([1, 200, 30, 400]);
    // [2, 1, 1]: the first dim.
    expect(list(mul(sp, dense([1, -1], [2, 1, 1], 'float64')).values)).toEqual([1, 2, -3, -4]);
    // [1, 3, 2]: same size but a leading 1.
    expect(list(mul(sp, dense([1, 2, 3, 4, 5, 6], [1, 3, 2], 'float64')).values)).toEqual([2, 10, 12, 20]);
    // full shape.
    expect(list(mul(sp, dense([...Array(12).keys()], [2, 3, 2], 'float64')).values)).toEqual([1, 8, 27, 40]);
  });

  it('wraps int32 products exactly (Math.imul), and int64 products', () => {
    const a = 2 ** 30 + 3;
    const out = mul(sparse([[0], [1], [2]], [65536, a, -(2 ** 31)], [3], 'int32'), dense([65536, a, -1], [3], 'int32'));
    expect(list(out.values)).toEqual([0, Math.imul(a, a), -(2 ** 31)]);
    expect(Math.imul(a, a)).not.toBe((a * a) | 0); // the double product is inexact here
    const big = mul(sparse([[0], [1]], [2n ** 52n + 1n, 2n ** 62n], [2], 'int64'), dense([2n, 2n], [2], 'int64'));
    expect(list(big.values)).toEqual([2n ** 53n + 2n, -(2n ** 63n)]);
  });

  it('rounds float32 products', () => {
    const out = mul(sparse([[0]], [Math.fround(0.1)], [1], 'float32'), dense([Math.fround(3)], [1], 'float32'));
    expect(out.values).toBeInstanceOf(Float32Array);
    expect(list(out.values)).toEqual([Math.fround(Math.fround(0.1) * 3)]);
  });

  it('handles an empty sparse operand', () => {
    const out = mul(sparse([], [], [0, 3], 'int64'), dense([1n, 2n, 3n], [3], 'int64'));
    expect(out.values.length).toBe(0);
    expect(out.shape).toEqual([0, 3]);
  });
});
