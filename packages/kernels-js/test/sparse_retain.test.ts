import { describe, expect, it } from 'vitest';
import { sparseRetain } from '../src/kernels/sparse_retain.js';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { list, rows } from './helpers.js';

const mask = (flags: boolean[]) => dense(flags, [flags.length], 'bool');

describe('sparse_retain kernel', () => {
  it('keeps the flagged entries of the seed 003 example', () => {
    const out = sparseRetain({
      sp_input: sparse(
        [
          [0, 1],
          [0, 3],
          [2, 0],
          [3, 1],
        ],
        ['a', 'b', 'c', 'd'],
        [4, 5],
        'string',
      ),
      to_retain: mask([true, false, false, true]),
    }).output;
    expect(rows(out)).toEqual([
      [0, 1],
      [3, 1],
    ]);
    expect(out.values).toEqual(['a', 'd']);
    expect(out.shape).toEqual([4, 5]);
  });

  it('keeps the input order of unordered entries (no reordering)', () => {
    const out = sparseRetain({
      sp_input: sparse([[3], [0], [2], [1]], [3, 0, 2, 1], [4], 'int32'),
      to_retain: mask([true, false, true, true]),
    }).output;
    expect(rows(out)).toEqual([[3], [2], [1]]);
    expect(list(out.values)).toEqual([3, 2, 1]);
  });

  it('moves every dtype unchanged', () => {
    const idx = [
      [0, 0],
      [1, 1],
      [0, 1],
    ];
    const keep = mask([false, true, true]);
    const cases: [Parameters<typeof sparse>[3], unknown[], unknown[]][] = [
      ['float32', [1.5, -2.5, 3.25], [-2.5, 3.25]],
      ['float64', [0.1, 0.2, 0.3], [0.2, 0.3]],
      ['int32', [1, 2, 3], [2, 3]],
      ['int64', [1n, 2n ** 62n, -(2n ** 63n)], [2n ** 62n, -(2n ** 63n)]],
      ['bool', [true, false, true], [0, 1]],
      ['string', ['x', 'y', 'z'], ['y', 'z']],
    ];
    for (const [dtype, vals, want] of cases) {
      const out = sparseRetain({ sp_input: sparse(idx, vals as never, [2, 2], dtype), to_retain: keep }).output;
      expect(out.dtype).toBe(dtype);
      expect(list(out.values)).toEqual(want);
      expect(rows(out)).toEqual([
        [1, 1],
        [0, 1],
      ]);
    }
  });

  it('handles empty input, all-false masks and huge dense shapes, leaving the input untouched', () => {
    const empty = sparseRetain({ sp_input: sparse([], [], [3, 0], 'float32'), to_retain: mask([]) }).output;
    expect(empty.values.length).toBe(0);
    expect(empty.shape).toEqual([3, 0]);
    const huge = [4096, 4096, 4096, 4096, 4096, 4096];
    const input = sparse(
      [
        [4095, 4095, 4095, 4095, 4095, 4095],
        [0, 0, 0, 0, 0, 1],
      ],
      [1, 2],
      huge,
      'int32',
    );
    const out = sparseRetain({ sp_input: input, to_retain: mask([true, false]) }).output;
    expect(rows(out)).toEqual([[4095, 4095, 4095, 4095, 4095, 4095]]);
    expect(out.shape).toEqual(huge);
    const none = sparseRetain({ sp_input: input, to_retain: mask([false, false]) }).output;
    expect(none.values.length).toBe(0);
    expect(none.indices.length).toBe(0);
    expect(rows(input)).toEqual([
      [4095, 4095, 4095, 4095, 4095, 4095],
      [0, 0, 0, 0, 0, 1],
    ]);
  });
});
