import { describe, expect, it } from 'vitest';
import { sparseMerge } from '../src/kernels/sparse_merge.js';
import { compareIndexRows } from '@sparse/kernel-abi';
import { sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { list, rows } from './helpers.js';

const seedIdx = [
  [0, 0],
  [1, 0],
  [1, 1],
  [1, 2],
  [2, 0],
  [2, 1],
];
const seedIds = () => sparse(seedIdx, [0n, 1n, 4n, 3n, 0n, 3n], [3, 3], 'int64');
const seedValues = () => sparse(seedIdx, [-3, 1, 1, 4, 5, 9], [3, 3], 'float32');

describe('sparse_merge kernel', () => {
  it('merges the seed 003 example into canonical order', () => {
    const out = sparseMerge({
      sp_ids: seedIds(),
      sp_values: seedValues(),
      vocab_size: 6,
      already_sorted: false,
    }).output;
    expect(rows(out)).toEqual([
      [0, 0],
      [1, 1],
      [1, 3],
      [1, 4],
      [2, 0],
      [2, 3],
    ]);
    expect(list(out.values)).toEqual([-3, 1, 4, 1, 5, 9]);
    expect(out.shape).toEqual([3, 6]);
    expect(out.dtype).toBe('float32');
  });

  it('keeps the input order with already_sorted', () => {
    const out = sparseMerge({ sp_ids: seedIds(), sp_values: seedValues(), vocab_size: 6, already_sorted: true }).output;
    expect(rows(out)).toEqual([
      [0, 0],
      [1, 1],
      [1, 4],
      [1, 3],
      [2, 0],
      [2, 3],
    ]);
    expect(list(out.values)).toEqual([-3, 1, 1, 4, 5, 9]);
  });

  it('merges a list of ids into a higher-dimensional output', () => {
    const idx = [
      [0, 0],
      [1, 0],
      [1, 1],
    ];
    const out = sparseMerge({
      sp_ids: [sparse(idx, [3, 2, 0], [2, 2], 'int32'), sparse(idx, [1, 4, 0], [2, 2], 'int32')],
      sp_values: sparse(idx, ['a', 'b', 'c'], [2, 2], 'string'),
      vocab_size: [4, 5],
      already_sorted: false,
    }).output;
    expect(rows(out)).toEqual([
      [0, 3, 1],
      [1, 0, 0],
      [1, 2, 4],
    ]);
    expect(out.values).toEqual(['a', 'c', 'b']);
    expect(out.shape).toEqual([2, 4, 5]);
  });

  it('orders by tuple when the output shape exceeds 2^53 elements', () => {
    const out = sparseMerge({
      sp_ids: sparse(
        [
          [1, 0],
          [0, 0],
          [1, 1],
        ],
        [2n ** 40n - 1n, 5n, 2n ** 40n - 2n],
        [2 ** 30, 2],
        'int64',
      ),
      sp_values: sparse([[0], [1], [2]], [1, 2, 3], [3], 'int32'),
      vocab_size: 2 ** 40,
      already_sorted: false,
    }).output;
    expect(rows(out)).toEqual([
      [0, 5],
      [1, 2 ** 40 - 2],
      [1, 2 ** 40 - 1],
    ]);
    expect(list(out.values)).toEqual([2, 3, 1]);
    expect(out.shape).toEqual([2 ** 30, 2 ** 40]);
  });

  it('matches a reference on random rank-3 ids, and handles empty input', () => {
    const r = rng(21).next;
    const n = 500;
    const idx = Array.from({ length: n }, () => [Math.floor(r() * 4), Math.floor(r() * 5), Math.floor(r() * 7)]);
    const ids = idx.map(() => Math.floor(r() * 6));
    const vals = idx.map((_, i) => String(i));
    const out = sparseMerge({
      sp_ids: sparse(idx, ids, [4, 5, 7], 'int32'),
      sp_values: sparse(idx, vals, [4, 5, 7], 'string'),
      vocab_size: 6,
      already_sorted: false,
    }).output;
    const want = idx
      .map((t, i) => ({ t: [t[0], t[1], ids[i]], i }))
      .sort((a, b) => a.t[0] - b.t[0] || a.t[1] - b.t[1] || a.t[2] - b.t[2] || a.i - b.i);
    expect(rows(out)).toEqual(want.map((w) => w.t));
    expect(out.values).toEqual(want.map((w) => String(w.i)));
    const e = sparseMerge({
      sp_ids: sparse([], [], [3, 0], 'int64'),
      sp_values: sparse([], [], [3, 0], 'bool'),
      vocab_size: 5,
      already_sorted: false,
    }).output;
    expect(e.shape).toEqual([3, 5]);
    expect(e.values.length).toBe(0);
  });

  it('merges 200k entries', () => {
    const r = rng(17).next;
    const n = 200_000;
    const idx = Array.from({ length: n }, () => [Math.floor(r() * 1e5), Math.floor(r() * 50)]);
    const out = sparseMerge({
      sp_ids: sparse(
        idx,
        idx.map(() => Math.floor(r() * 1e6)),
        [1e5, 50],
        'int32',
      ),
      sp_values: sparse(
        idx,
        idx.map((_, i) => i),
        [1e5, 50],
        'float64',
      ),
      vocab_size: 1e6,
      already_sorted: false,
    }).output;
    let bad = -1;
    for (let i = 1; i < n && bad < 0; i++) if (compareIndexRows(out.indices, i - 1, out.indices, i, 2) > 0) bad = i;
    expect(bad).toBe(-1);
  });
});
