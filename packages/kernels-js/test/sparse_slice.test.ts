import { describe, expect, it } from 'vitest';
import { sparseSlice } from '../src/kernels/sparse_slice.js';
import type { DType, SparseData } from '@sparse/kernel-abi';
import { sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { list, rows } from './helpers.js';

const slice = (sp_input: SparseData, start: number[], size: number[]) => sparseSlice({ sp_input, start, size }).output;

const DOC = sparse(
  [
    [0, 0],
    [0, 2],
    [0, 4],
    [1, 1],
    [1, 3],
    [1, 5],
    [2, 0],
    [2, 2],
    [2, 4],
    [3, 1],
    [3, 3],
    [3, 5],
  ],
  [0, 2, 4, 11, 13, 15, 20, 22, 24, 31, 33, 35],
  [4, 6],
  'int64',
);

describe('sparse_slice kernel', () => {
  it('cuts the two boxes of the tf.sparse.slice example', () => {
    const a = slice(DOC, [0, 0], [2, 4]);
    expect(a.shape).toEqual([2, 4]);
    expect(rows(a)).toEqual([
      [0, 0],
      [0, 2],
      [1, 1],
      [1, 3],
    ]);
    expect(list(a.values)).toEqual([0n, 2n, 11n, 13n]);
    const b = slice(DOC, [0, 4], [2, 3]);
    expect(b.shape).toEqual([2, 2]);
    expect(rows(b)).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(list(b.values)).toEqual([4n, 15n]);
  });

  it('matches a per-entry reference on random input, every dtype, boxes inside, across and past the end', () => {
    const r = rng(4).next;
    const dtypes: DType[] = ['float32', 'float64', 'int32', 'int64', 'bool', 'string'];
    for (let trial = 0; trial < 100; trial++) {
      const rank = 1 + (trial % 3);
      const shape = Array.from({ length: rank }, () => Math.floor(r() * 5));
      const tuples = shape.includes(0)
        ? []
        : Array.from({ length: Math.floor(r() * 10) }, () => shape.map((d) => Math.floor(r() * d)));
      const start = shape.map((d) => Math.floor(r() * (d + 3)));
      const size = shape.map(() => Math.floor(r() * 5));
      const dtype = dtypes[trial % dtypes.length];
      const ids = tuples.map((_, i) => (dtype === 'bool' ? i % 2 === 0 : dtype === 'string' ? `s${i}` : i));
      const out = slice(sparse(tuples, ids, shape, dtype), start, size);
      const keep = tuples
        .map((t, i) => ({ t, i }))
        .filter(({ t }) => t.every((x, d) => x >= start[d] && x < start[d] + size[d]));
      expect(rows(out)).toEqual(keep.map(({ t }) => t.map((x, d) => x - start[d])));
      const stored = (i: number) => (dtype === 'bool' ? (ids[i] ? 1 : 0) : dtype === 'int64' ? BigInt(i) : ids[i]);
      expect(list(out.values)).toEqual(keep.map(({ i }) => stored(i)));
      expect(out.shape).toEqual(shape.map((d, j) => Math.max(0, Math.min(start[j] + size[j], d) - start[j])));
    }
  });

  it('works on shapes of more than 2^53 elements and with start + size beyond 2^53', () => {
    const shape = [4096, 4096, 4096, 4096, 4096, 4096];
    const sp = sparse(
      [
        [0, 0, 0, 0, 0, 4000],
        [4095, 1, 2, 3, 4, 4000],
        [4095, 4095, 4095, 4095, 4095, 4095],
      ],
      [1, 2, 3],
      shape,
      'int32',
    );
    const out = slice(sp, [4095, 0, 0, 0, 0, 4000], [1, 4096, 4096, 4096, 4096, 100]);
    expect(out.shape).toEqual([1, 4096, 4096, 4096, 4096, 96]);
    expect(rows(out)).toEqual([
      [0, 1, 2, 3, 4, 0],
      [0, 4095, 4095, 4095, 4095, 95],
    ]);
    const big = 2 ** 53 - 1;
    const wide = slice(sparse([[big - 1], [3]], [1, 2], [big], 'float32'), [3], [big]);
    expect(wide.shape).toEqual([big - 3]);
    expect(rows(wide)).toEqual([[big - 4], [0]]);
  });

  it('keeps the order of unordered input and leaves the input untouched', () => {
    const sp = sparse(
      [
        [2, 2],
        [0, 0],
        [1, 1],
        [1, 2],
      ],
      ['c', 'x', 'a', 'b'],
      [3, 3],
      'string',
    );
    const out = slice(sp, [1, 1], [2, 2]);
    expect(rows(out)).toEqual([
      [1, 1],
      [0, 0],
      [0, 1],
    ]);
    expect(out.values).toEqual(['c', 'a', 'b']);
    expect(rows(sp)).toEqual([
      [2, 2],
      [0, 0],
      [1, 1],
      [1, 2],
    ]);
    const none = slice(sparse([], [], [3, 4], 'bool'), [5, 1], [1, 1]);
    expect(none.shape).toEqual([0, 1]);
    expect(none.values.length).toBe(0);
  });
});
