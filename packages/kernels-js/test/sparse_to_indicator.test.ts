import { describe, expect, it } from 'vitest';
import { sparseToIndicator } from '../src/kernels/sparse_to_indicator.js';
import { sparse } from '@sparse/test-kit/plain-data';
import { list } from './helpers.js';

describe('sparse_to_indicator kernel', () => {
  it('marks exactly the six seed 003 positions of a [2,3,200] output', () => {
    const sp = sparse(
      [
        [0, 0, 0],
        [0, 1, 0],
        [1, 0, 3],
        [1, 1, 2],
        [1, 1, 3],
        [1, 1, 4],
        [1, 2, 1],
      ],
      [0n, 10n, 103n, 150n, 149n, 150n, 121n],
      [2, 3, 4],
      'int64',
    );
    const out = sparseToIndicator({ sp_input: sp, vocab_size: 200 }).output;
    expect(out.shape).toEqual([2, 3, 200]);
    expect(out.dtype).toBe('bool');
    const on: number[] = [];
    list(out.data).forEach((v, i) => v && on.push(i));
    expect(on).toEqual(
      [
        [0, 0, 0],
        [0, 1, 10],
        [1, 0, 103],
        [1, 1, 149],
        [1, 1, 150],
        [1, 2, 121],
      ].map(([a, b, c]) => a * 600 + b * 200 + c),
    );
  });

  it('takes int32 ids, repeats and unordered entries; rank 1 gives a vector', () => {
    const out = sparseToIndicator({
      sp_input: sparse(
        [
          [1, 1],
          [0, 0],
          [1, 0],
          [0, 2],
        ],
        [1, 0, 1, 0],
        [2, 3],
        'int32',
      ),
      vocab_size: 2,
    }).output;
    expect(list(out.data)).toEqual([1, 0, 0, 1]);
    const v = sparseToIndicator({ sp_input: sparse([[0], [2]], [1, 3], [3], 'int32'), vocab_size: 4 }).output;
    expect(v.shape).toEqual([4]);
    expect(list(v.data)).toEqual([0, 1, 0, 1]);
  });

  it('ignores a huge discarded last dim and handles empty input and vocab 0', () => {
    const out = sparseToIndicator({
      sp_input: sparse([[1, 2 ** 53 - 2]], [2], [2, 2 ** 53 - 1], 'int32'),
      vocab_size: 3,
    }).output;
    expect(out.shape).toEqual([2, 3]);
    expect(list(out.data)).toEqual([0, 0, 0, 0, 0, 1]);
    expect(list(sparseToIndicator({ sp_input: sparse([], [], [2, 5], 'int64'), vocab_size: 3 }).output.data)).toEqual([
      0, 0, 0, 0, 0, 0,
    ]);
    const z = sparseToIndicator({ sp_input: sparse([], [], [2, 5], 'int32'), vocab_size: 0 }).output;
    expect(z.shape).toEqual([2, 0]);
    expect(z.data.length).toBe(0);
  });
});
