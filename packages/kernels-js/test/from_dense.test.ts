import { describe, expect, it } from 'vitest';
import { fromDense } from '../src/kernels/from_dense.js';
import { dense } from '@sparse/test-kit/plain-data';
import { list, rows } from './helpers.js';

describe('from_dense kernel', () => {
  it('keeps the nonzero elements in row-major order (seed 001)', () => {
    const { output } = fromDense({ tensor: dense([1, 0, 2, 0, 3, 0, 0, 4], [2, 4], 'int32') });
    expect(rows(output)).toEqual([
      [0, 0],
      [0, 2],
      [1, 0],
      [1, 3],
    ]);
    expect(output.values).toBeInstanceOf(Int32Array);
    expect(list(output.values)).toEqual([1, 2, 3, 4]);
    expect(output.shape).toEqual([2, 4]);
    expect(output.dtype).toBe('int32');
  });

  it('drops 0 and -0, keeps NaN and infinities', () => {
    const { output } = fromDense({ tensor: dense([0, -0, NaN, Infinity, -0, -1.5], [6], 'float64') });
    expect(rows(output)).toEqual([[2], [3], [5]]);
    expect(list(output.values)).toEqual([NaN, Infinity, -1.5]);
    const f32 = fromDense({ tensor: dense([-0, 0.1], [2], 'float32') }).output;
    expect(f32.values).toBeInstanceOf(Float32Array);
    expect(list(f32.values)).toEqual([Math.fround(0.1)]);
  });

  it('treats false and the empty string as zero', () => {
    const b = fromDense({ tensor: dense([false, true, true, false], [2, 2], 'bool') }).output;
    expect(rows(b)).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(b.values).toBeInstanceOf(Uint8Array);
    expect(list(b.values)).toEqual([1, 1]);
    const s = fromDense({ tensor: dense(['', 'a', '', 'b'], [4], 'string') }).output;
    expect(rows(s)).toEqual([[1], [3]]);
    expect(s.values).toEqual(['a', 'b']);
  });

  it('keeps int64 values beyond 2^53 exactly', () => {
    const big = 2n ** 53n + 1n;
    const { output } = fromDense({ tensor: dense([0n, big, -(2n ** 63n)], [3], 'int64') });
    expect(output.values).toBeInstanceOf(BigInt64Array);
    expect(list(output.values)).toEqual([big, -(2n ** 63n)]);
  });

  it('walks rank-3 tensors in row-major order', () => {
    const data = [0, 1, 2, 0, 0, 0, 3, 4, 0, 0, 0, 5];
    const { output } = fromDense({ tensor: dense(data, [2, 3, 2], 'int32') });
    expect(rows(output)).toEqual([
      [0, 0, 1],
      [0, 1, 0],
      [1, 0, 0],
      [1, 0, 1],
      [1, 2, 1],
    ]);
    expect(list(output.values)).toEqual([1, 2, 3, 4, 5]);
  });

  it('gives a rank-0 SparseTensor for a scalar', () => {
    const one = fromDense({ tensor: dense([7], [], 'int32') }).output;
    expect(one.shape).toEqual([]);
    expect(one.indices.length).toBe(0);
    expect(list(one.values)).toEqual([7]);
    const none = fromDense({ tensor: dense([0], [], 'float32') }).output;
    expect(none.values.length).toBe(0);
  });

  it('handles zero-sized dims and all-zero tensors', () => {
    const empty = fromDense({ tensor: dense([], [0, 3], 'float32') }).output;
    expect(empty.shape).toEqual([0, 3]);
    expect(empty.values.length).toBe(0);
    const zeros = fromDense({ tensor: dense([0, 0, 0, 0, 0, 0], [3, 1, 2], 'int32') }).output;
    expect(zeros.indices.length).toBe(0);
    expect(zeros.values.length).toBe(0);
  });

  it('agrees with unravelling the flat position on a large random tensor', () => {
    const shape = [7, 1, 13, 11];
    const n = 7 * 13 * 11;
    const data = Array.from({ length: n }, (_, f) => (f % 3 === 0 ? f + 1 : 0));
    const { output } = fromDense({ tensor: dense(data, shape, 'float64') });
    const want: number[][] = [];
    for (let f = 0; f < n; f += 3) want.push([Math.floor(f / 143), 0, Math.floor(f / 11) % 13, f % 11]);
    expect(rows(output)).toEqual(want);
  });
});
