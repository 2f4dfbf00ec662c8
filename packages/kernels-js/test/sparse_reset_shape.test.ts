import { describe, expect, it } from 'vitest';
import { sparseResetShape } from '../src/kernels/sparse_reset_shape.js';
import { sparse } from '@sparse/test-kit/plain-data';
import { list, rows } from './helpers.js';

const seed = () =>
  sparse(
    [
      [0, 0, 1],
      [0, 1, 0],
      [0, 2, 2],
      [1, 0, 3],
    ],
    ['a', 'b', 'c', 'd'],
    [2, 3, 5],
    'string',
  );

describe('sparse_reset_shape kernel', () => {
  it('gives the seed 003 example its tight bounding box [2,3,4] for null', () => {
    const out = sparseResetShape({ sp_input: seed(), new_shape: null }).output;
    expect(out.shape).toEqual([2, 3, 4]);
    expect(rows(out)).toEqual(rows(seed()));
    expect(out.values).toEqual(['a', 'b', 'c', 'd']);
  });

  it('takes a given new_shape and copies indices and values (no aliasing)', () => {
    const input = seed();
    const out = sparseResetShape({ sp_input: input, new_shape: [2, 3, 6] }).output;
    expect(out.shape).toEqual([2, 3, 6]);
    expect(out.indices).not.toBe(input.indices);
    expect(out.values).not.toBe(input.values);
    out.indices[0] = 99;
    expect(input.indices[0]).toBe(0);
  });

  it('gives zeros for an input with no entries, and [] for rank 0', () => {
    expect(sparseResetShape({ sp_input: sparse([], [], [3, 4, 5], 'float64'), new_shape: null }).output.shape).toEqual([
      0, 0, 0,
    ]);
    const r0 = sparseResetShape({ sp_input: sparse([[]], [7], [], 'int32'), new_shape: null }).output;
    expect(r0.shape).toEqual([]);
    expect(list(r0.values)).toEqual([7]);
  });

  it('takes the maximum over unordered entries and huge dims exactly', () => {
    const out = sparseResetShape({
      sp_input: sparse(
        [
          [1, 2 ** 52],
          [3, 0],
          [0, 2 ** 52 + 1],
        ],
        [1n, 2n, 3n],
        [4, 2 ** 53 - 1],
        'int64',
      ),
      new_shape: null,
    }).output;
    expect(out.shape).toEqual([4, 2 ** 52 + 2]);
    expect(list(out.values)).toEqual([1n, 2n, 3n]);
  });
});
