import { describe, expect, it } from 'vitest';
import { sparseTranspose } from '../src/kernels/sparse_transpose.js';
import { compareIndexRows } from '@sparse/kernel-abi';
import { sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { list, rows } from './helpers.js';

describe('sparse_transpose kernel', () => {
  it('transposes the seed 003 example into canonical order', () => {
    const out = sparseTranspose({
      sp_input: sparse(
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
      perm: null,
    }).output;
    expect(rows(out)).toEqual([
      [0, 2],
      [1, 0],
      [1, 3],
      [3, 0],
    ]);
    expect(out.values).toEqual(['c', 'a', 'd', 'b']);
    expect(out.shape).toEqual([5, 4]);
  });

  it('matches a dense oracle on random rank-3 input for every perm', () => {
    const r = rng(3).next;
    const shape = [3, 4, 5];
    const perms = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ];
    // distinct positions, in random order
    const all = Array.from({ length: 60 }, (_, k) => [Math.floor(k / 20), Math.floor(k / 5) % 4, k % 5]).filter(
      () => r() < 0.4,
    );
    const tuples = all
      .map((t) => ({ t, key: r() }))
      .sort((a, b) => a.key - b.key)
      .map((x) => x.t);
    const vals = tuples.map((_, i) => i + 0.5);
    for (const perm of perms) {
      const out = sparseTranspose({ sp_input: sparse(tuples, vals, shape, 'float64'), perm }).output;
      const outShape = perm.map((d) => shape[d]);
      expect(out.shape).toEqual(outShape);
      // oracle: walk the output dense positions in row-major order
      const at = new Map(tuples.map((t, i) => [perm.map((d) => t[d]).join(','), vals[i]]));
      const wantRows: number[][] = [];
      const wantVals: number[] = [];
      for (let a = 0; a < outShape[0]; a++)
        for (let b = 0; b < outShape[1]; b++)
          for (let c = 0; c < outShape[2]; c++) {
            const v = at.get(`${a},${b},${c}`);
            if (v !== undefined) {
              wantRows.push([a, b, c]);
              wantVals.push(v);
            }
          }
      expect(rows(out)).toEqual(wantRows);
      expect(list(out.values)).toEqual(wantVals);
    }
  });

  it('orders by index tuple on shapes beyond 2^53 elements', () => {
    const shape = [4096, 4096, 4096, 4096, 4096, 4096];
    const top = [4095, 4095, 4095, 4095, 4095];
    const out = sparseTranspose({
      sp_input: sparse(
        [
          [3, ...top],
          [1, ...top],
          [0, 0, 0, 0, 0, 1],
          [2, ...top],
        ],
        [3n, 1n, 9n, 2n],
        shape,
        'int64',
      ),
      perm: [1, 2, 3, 4, 5, 0],
    }).output;
    expect(rows(out)).toEqual([
      [0, 0, 0, 0, 1, 0],
      [...top, 1],
      [...top, 2],
      [...top, 3],
    ]);
    expect(list(out.values)).toEqual([9n, 1n, 2n, 3n]);
  });

  it('keeps repeated indices in input order, and handles rank 0, rank 1, empty and bool', () => {
    const rep = sparseTranspose({
      sp_input: sparse(
        [
          [1, 0],
          [0, 1],
          [1, 0],
        ],
        [1, 2, 3],
        [2, 2],
        'int32',
      ),
      perm: null,
    }).output;
    expect(rows(rep)).toEqual([
      [0, 1],
      [0, 1],
      [1, 0],
    ]);
    expect(list(rep.values)).toEqual([1, 3, 2]);
    expect(sparseTranspose({ sp_input: sparse([[]], [1], [], 'int32'), perm: null }).output.shape).toEqual([]);
    const r1 = sparseTranspose({ sp_input: sparse([[3], [1]], [true, false], [5], 'bool'), perm: [0] }).output;
    expect(rows(r1)).toEqual([[1], [3]]);
    expect(list(r1.values)).toEqual([0, 1]);
    const e = sparseTranspose({ sp_input: sparse([], [], [0, 3, 2], 'float32'), perm: [2, 0, 1] }).output;
    expect(e.shape).toEqual([2, 0, 3]);
    expect(e.values.length).toBe(0);
  });

  it('transposes 200k entries', () => {
    const r = rng(13).next;
    const n = 200_000;
    const tuples = Array.from({ length: n }, () => [
      Math.floor(r() * 1e6),
      Math.floor(r() * 1e6),
      Math.floor(r() * 1e6),
    ]);
    const out = sparseTranspose({
      sp_input: sparse(
        tuples,
        tuples.map((_, i) => i),
        [1e6, 1e6, 1e6],
        'int32',
      ),
      perm: null,
    }).output;
    let bad = -1;
    for (let i = 1; i < n && bad < 0; i++) if (compareIndexRows(out.indices, i - 1, out.indices, i, 3) > 0) bad = i;
    expect(bad).toBe(-1);
  });
});
