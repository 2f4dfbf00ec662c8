import { describe, expect, it } from 'vitest';
import { sparseReorder } from '../src/kernels/sparse_reorder.js';
import { compareIndexRows } from '@sparse/kernel-abi';
import { sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { list, rows } from './helpers.js';

const reorder = (sp: ReturnType<typeof sparse>) => sparseReorder({ sp_input: sp }).output;

/** The reference: a stable sort of (tuple, position) pairs by tuple. */
function referenceOrder(tuples: number[][]): number[] {
  return tuples
    .map((t, i) => ({ t, i }))
    .sort((x, y) => {
      for (let d = 0; d < x.t.length; d++) if (x.t[d] !== y.t[d]) return x.t[d] - y.t[d];
      return x.i - y.i;
    })
    .map((e) => e.i);
}

describe('sparse_reorder kernel', () => {
  it('sorts the seed 003 example', () => {
    const out = reorder(
      sparse(
        [
          [0, 3],
          [0, 1],
          [3, 1],
          [2, 0],
        ],
        ['b', 'a', 'd', 'c'],
        [4, 5],
        'string',
      ),
    );
    expect(rows(out)).toEqual([
      [0, 1],
      [0, 3],
      [2, 0],
      [3, 1],
    ]);
    expect(out.values).toEqual(['a', 'b', 'c', 'd']);
    expect(out.shape).toEqual([4, 5]);
  });

  it('keeps repeated indices in their input order (stable)', () => {
    const out = reorder(
      sparse(
        [
          [1, 1],
          [0, 0],
          [1, 1],
          [0, 0],
          [1, 1],
        ],
        [1, 2, 3, 4, 5],
        [2, 2],
        'int32',
      ),
    );
    expect(rows(out)).toEqual([
      [0, 0],
      [0, 0],
      [1, 1],
      [1, 1],
      [1, 1],
    ]);
    expect(list(out.values)).toEqual([2, 4, 1, 3, 5]);
  });

  it('orders shapes with more than 2^53 elements by index tuple, not by an overflowing offset', () => {
    const shape = [4096, 4096, 4096, 4096, 4096, 4096];
    const top = [4095, 4095, 4095, 4095, 4095];
    // Offsets of these rows differ by 1 near 2^72: a float key would make them equal.
    const tuples = [
      [...top, 3],
      [...top, 1],
      [0, 0, 0, 0, 0, 1],
      [...top, 2],
      [0, 0, 0, 0, 0, 0],
      [...top, 0],
    ];
    const out = reorder(sparse(tuples, [0, 1, 2, 3, 4, 5], shape, 'int64'));
    expect(rows(out)).toEqual([
      [0, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 1],
      [...top, 0],
      [...top, 1],
      [...top, 2],
      [...top, 3],
    ]);
    expect(list(out.values)).toEqual([4n, 2n, 5n, 1n, 3n, 0n]);
  });

  it('is exact on both sides of the 2^53 boundary', () => {
    for (const shape of [
      [2 ** 26, 2 ** 27 - 1],
      [2 ** 26, 2 ** 27],
      [2 ** 27, 2 ** 27],
    ]) {
      const last = shape[1] - 1;
      const tuples = [
        [shape[0] - 1, last],
        [shape[0] - 1, last - 1],
        [shape[0] - 2, last],
        [0, 1],
        [0, 0],
      ];
      const out = reorder(sparse(tuples, [0, 1, 2, 3, 4], shape, 'float64'));
      expect(list(out.values)).toEqual([4, 3, 2, 1, 0]);
    }
  });

  it('matches a reference stable sort on random rank-3 input with repeats, every dtype', () => {
    const r = rng(7).next;
    const shape = [5, 4, 6];
    const n = 3000;
    const tuples = Array.from({ length: n }, () => shape.map((d) => Math.floor(r() * d)));
    const want = referenceOrder(tuples);
    const ids = tuples.map((_, i) => i);
    const f = reorder(sparse(tuples, ids, shape, 'float64'));
    expect(list(f.values)).toEqual(want);
    expect(rows(f)).toEqual(want.map((i) => tuples[i]));
    expect(list(reorder(sparse(tuples, ids, shape, 'int32')).values)).toEqual(want);
    expect(list(reorder(sparse(tuples, ids, shape, 'float32')).values)).toEqual(want);
    expect(list(reorder(sparse(tuples, ids.map(BigInt), shape, 'int64')).values)).toEqual(want.map(BigInt));
    expect(reorder(sparse(tuples, ids.map(String), shape, 'string')).values).toEqual(want.map(String));
    expect(
      list(
        reorder(
          sparse(
            tuples,
            ids.map((i) => i % 2 === 0),
            shape,
            'bool',
          ),
        ).values,
      ),
    ).toEqual(want.map((i) => (i % 2 === 0 ? 1 : 0)));
  });

  it('sorts 200k entries of a huge shape (tuple compare)', () => {
    const r = rng(11).next;
    const shape = [1e6, 1e6, 1e6, 1e6];
    const n = 200_000;
    const tuples = Array.from({ length: n }, () => [
      Math.floor(r() * 3),
      Math.floor(r() * 1e6),
      7,
      Math.floor(r() * 1e6),
    ]);
    const sp = sparse(
      tuples,
      tuples.map((_, i) => i),
      shape,
      'int32',
    );
    const out = reorder(sp);
    let bad = -1;
    for (let i = 1; i < n && bad < 0; i++) {
      const c = compareIndexRows(out.indices, i - 1, out.indices, i, 4);
      if (!(c < 0 || (c === 0 && out.values[i - 1] < out.values[i]))) bad = i;
    }
    expect(bad).toBe(-1);
  });

  it('handles empty input, rank 1 and rank 0, and leaves the input untouched', () => {
    const empty = reorder(sparse([], [], [3, 0], 'float32'));
    expect(empty.values.length).toBe(0);
    expect(empty.shape).toEqual([3, 0]);
    const r1 = sparse([[7], [0], [3]], [0.7, 0, 0.3], [8], 'float64');
    const out = reorder(r1);
    expect(rows(out)).toEqual([[0], [3], [7]]);
    expect(list(out.values)).toEqual([0, 0.3, 0.7]);
    expect(rows(r1)).toEqual([[7], [0], [3]]);
    expect(list(r1.values)).toEqual([0.7, 0, 0.3]);
    const r0 = reorder(sparse([[], []], [1, 2], [], 'int32'));
    expect(list(r0.values)).toEqual([1, 2]);
  });
});
