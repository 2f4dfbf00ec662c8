import { describe, expect, it } from 'vitest';
import { sparseEye } from '../src/kernels/sparse_eye.js';
import { list, rows } from './helpers.js';

describe('sparse_eye kernel', () => {
  it('stores a one of the dtype at [i, i] below both dims, in canonical order', () => {
    const tall = sparseEye({ num_rows: 4, num_columns: 2, dtype: 'int64' }).output;
    expect(tall.shape).toEqual([4, 2]);
    expect(rows(tall)).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(list(tall.values)).toEqual([1n, 1n]);
    const square = sparseEye({ num_rows: 3, num_columns: null, dtype: 'bool' }).output;
    expect(square.shape).toEqual([3, 3]);
    expect(square.values).toBeInstanceOf(Uint8Array);
    expect(list(square.values)).toEqual([1, 1, 1]);
  });

  it('has no entries where a dim is 0, and as many as the smaller dim however large the other', () => {
    expect(sparseEye({ num_rows: 0, num_columns: null, dtype: 'float32' }).output.values.length).toBe(0);
    const wide = sparseEye({ num_rows: 2, num_columns: 2 ** 53 - 1, dtype: 'float64' }).output;
    expect(wide.shape).toEqual([2, 2 ** 53 - 1]);
    expect(Array.from(wide.indices)).toEqual([0, 0, 1, 1]);
  });
});
