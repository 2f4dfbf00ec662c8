import { describe, expect, it } from 'vitest';
import { sparseSplit } from '../src/kernels/sparse_split.js';
import type { DType, SparseData } from '@sparse/kernel-abi';
import { sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { list, rows } from './helpers.js';

const split = (axis: number, num_split: number, sp_input: SparseData) =>
  sparseSplit({ axis, num_split, sp_input }).output;

/** The reference: piece boundaries listed one by one, each entry placed by a linear scan. */
function boundaries(size: number, k: number): number[] {
  const starts = [0];
  for (let p = 0; p < k; p++) starts.push(starts[p] + Math.floor(size / k) + (p < size % k ? 1 : 0));
  return starts;
}

describe('sparse_split kernel', () => {
  it('splits the seed 003 example into 4 + 3 columns', () => {
    const out = split(
      1,
      2,
      sparse(
        [
          [0, 2],
          [0, 4],
          [0, 5],
          [1, 0],
          [1, 1],
        ],
        ['a', 'd', 'e', 'b', 'c'],
        [2, 7],
        'string',
      ),
    );
    expect(out.map((s) => s.shape)).toEqual([
      [2, 4],
      [2, 3],
    ]);
    expect(rows(out[0])).toEqual([
      [0, 2],
      [1, 0],
      [1, 1],
    ]);
    expect(out[0].values).toEqual(['a', 'b', 'c']);
    expect(rows(out[1])).toEqual([
      [0, 0],
      [0, 1],
    ]);
    expect(out[1].values).toEqual(['d', 'e']);
  });

  it('matches a reference on random input (any order kept), every axis, every dtype', () => {
    const r = rng(9).next;
    const dtypes: DType[] = ['float32', 'float64', 'int32', 'int64', 'bool', 'string'];
    for (let trial = 0; trial < 80; trial++) {
      const shape = [1 + Math.floor(r() * 7), 1 + Math.floor(r() * 7), 1 + Math.floor(r() * 3)];
      const axis = trial % 3;
      const k = 1 + Math.floor(r() * shape[axis]);
      const tuples = Array.from({ length: Math.floor(r() * 12) }, () => shape.map((d) => Math.floor(r() * d)));
      const dtype = dtypes[trial % dtypes.length];
      const ids = tuples.map((_, i) => (dtype === 'bool' ? i % 3 === 0 : dtype === 'string' ? `v${i}` : i));
      const out = split(trial % 2 ? axis - 3 : axis, k, sparse(tuples, ids, shape, dtype));
      const starts = boundaries(shape[axis], k);
      expect(out.length).toBe(k);
      for (let p = 0; p < k; p++) {
        expect(out[p].shape).toEqual(shape.map((d, j) => (j === axis ? starts[p + 1] - starts[p] : d)));
        expect(out[p].dtype).toBe(dtype);
        const mine = tuples
          .map((t, i) => ({ t, i }))
          .filter(({ t }) => t[axis] >= starts[p] && t[axis] < starts[p + 1]);
        expect(rows(out[p])).toEqual(mine.map(({ t }) => t.map((x, j) => (j === axis ? x - starts[p] : x))));
        const stored = (i: number) => (dtype === 'bool' ? (ids[i] ? 1 : 0) : dtype === 'int64' ? BigInt(i) : ids[i]);
        expect(list(out[p].values)).toEqual(mine.map(({ i }) => stored(i)));
      }
    }
  });

  it('is exact for a split dim near 2^53 and for shapes of more than 2^53 elements', () => {
    const size = 2 ** 53 - 1; // = 3 * 3002399751580330 + 1
    const out = split(
      0,
      3,
      sparse([[size - 1], [3002399751580331], [3002399751580330], [0]], [1, 2, 3, 4], [size], 'int32'),
    );
    expect(out.map((s) => s.shape[0])).toEqual([3002399751580331, 3002399751580330, 3002399751580330]);
    expect(rows(out[0])).toEqual([[3002399751580330], [0]]);
    expect(rows(out[1])).toEqual([[0]]);
    expect(rows(out[2])).toEqual([[3002399751580329]]);
    const huge = split(
      5,
      4096,
      sparse(
        [
          [4095, 4095, 4095, 4095, 4095, 4095],
          [0, 0, 0, 0, 0, 7],
        ],
        [1, 2],
        [4096, 4096, 4096, 4096, 4096, 4096],
        'float64',
      ),
    );
    expect(huge.length).toBe(4096);
    expect(rows(huge[4095])).toEqual([[4095, 4095, 4095, 4095, 4095, 0]]);
    expect(rows(huge[7])).toEqual([[0, 0, 0, 0, 0, 0]]);
    expect(huge[7].shape).toEqual([4096, 4096, 4096, 4096, 4096, 1]);
  });

  it('makes empty pieces from empty input and keeps the input untouched', () => {
    const out = split(0, 3, sparse([], [], [4, 2], 'int64'));
    expect(out.map((s) => s.shape)).toEqual([
      [2, 2],
      [1, 2],
      [1, 2],
    ]);
    expect(out.every((s) => s.values.length === 0 && s.indices.length === 0)).toBe(true);
    const input = sparse(
      [
        [1, 3],
        [0, 0],
      ],
      [1, 2],
      [2, 4],
      'int32',
    );
    split(1, 2, input);
    expect(rows(input)).toEqual([
      [1, 3],
      [0, 0],
    ]);
  });

  it('splits 500k entries into 1000 pieces', () => {
    const r = rng(1).next;
    const n = 500_000;
    const tuples = Array.from({ length: n }, () => [Math.floor(r() * 100_000), Math.floor(r() * 8)]);
    const input = sparse(
      tuples,
      tuples.map((_, i) => i),
      [100_000, 8],
      'int32',
    );
    const out = split(0, 1000, input);
    expect(out.reduce((s, p) => s + p.values.length, 0)).toBe(n);
  });
});
