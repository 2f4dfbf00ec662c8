import { describe, expect, it } from 'vitest';
import { sparseFillEmptyRows } from '../src/kernels/sparse_fill_empty_rows.js';
import { sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { list, rows } from './helpers.js';

/** Reference: rows in increasing order; a row's entries in input order, or [row, 0, ...] with the default. */
function reference(tuples: number[][], vals: number[], shape: number[], def: number) {
  const outRows: number[][] = [];
  const outVals: number[] = [];
  const empty: number[] = [];
  for (let r = 0; r < shape[0]; r++) {
    const mine = tuples.map((t, i) => i).filter((i) => tuples[i][0] === r);
    empty.push(mine.length === 0 ? 1 : 0);
    if (mine.length === 0) {
      outRows.push([r, ...shape.slice(1).map(() => 0)]);
      outVals.push(def);
    }
    for (const i of mine) {
      outRows.push(tuples[i]);
      outVals.push(vals[i]);
    }
  }
  return { outRows, outVals, empty };
}

describe('sparse_fill_empty_rows kernel', () => {
  it('fills rows 1 and 4 of the seed 003 example', () => {
    const out = sparseFillEmptyRows({
      sp_input: sparse(
        [
          [0, 1],
          [0, 3],
          [2, 0],
          [3, 1],
        ],
        ['a', 'b', 'c', 'd'],
        [5, 6],
        'string',
      ),
      default_value: 'x',
    });
    expect(rows(out.output)).toEqual([
      [0, 1],
      [0, 3],
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 0],
    ]);
    expect(out.output.values).toEqual(['a', 'b', 'x', 'c', 'd', 'x']);
    expect(out.output.shape).toEqual([5, 6]);
    expect(list(out.empty_row_indicator.data)).toEqual([0, 1, 0, 0, 1]);
    expect(out.empty_row_indicator.shape).toEqual([5]);
    expect(out.empty_row_indicator.dtype).toBe('bool');
  });

  it('groups unordered input by row, keeping the input order within a row', () => {
    const out = sparseFillEmptyRows({
      sp_input: sparse(
        [
          [2, 1],
          [0, 3],
          [2, 0],
          [0, 1],
        ],
        [1, 2, 3, 4],
        [4, 4],
        'int32',
      ),
      default_value: -1,
    });
    expect(rows(out.output)).toEqual([
      [0, 3],
      [0, 1],
      [1, 0],
      [2, 1],
      [2, 0],
      [3, 0],
    ]);
    expect(list(out.output.values)).toEqual([2, 4, -1, 1, 3, -1]);
  });

  it('fills [row, 0, 0] in rank 3 and [row] in rank 1, for every dtype', () => {
    const r3 = sparseFillEmptyRows({ sp_input: sparse([[1, 1, 0]], [true], [3, 2, 2], 'bool'), default_value: false });
    expect(rows(r3.output)).toEqual([
      [0, 0, 0],
      [1, 1, 0],
      [2, 0, 0],
    ]);
    expect(list(r3.output.values)).toEqual([0, 1, 0]);
    const r1 = sparseFillEmptyRows({ sp_input: sparse([[2]], [5n], [4], 'int64'), default_value: 2n ** 63n - 1n });
    expect(rows(r1.output)).toEqual([[0], [1], [2], [3]]);
    expect(list(r1.output.values)).toEqual([2n ** 63n - 1n, 2n ** 63n - 1n, 5n, 2n ** 63n - 1n]);
    for (const dtype of ['float32', 'float64', 'int32'] as const) {
      const o = sparseFillEmptyRows({ sp_input: sparse([[1, 0]], [1.5], [2, 2], dtype), default_value: 0.5 }).output;
      expect(list(o.values)).toEqual(dtype === 'int32' ? [0, 1] : [0.5, 1.5]);
    }
  });

  it('handles no rows, no entries and dims beyond 2^32', () => {
    const none = sparseFillEmptyRows({ sp_input: sparse([], [], [0, 3], 'float32'), default_value: 1 });
    expect(none.output.values.length).toBe(0);
    expect(none.empty_row_indicator.data.length).toBe(0);
    const all = sparseFillEmptyRows({ sp_input: sparse([], [], [2, 3], 'float32'), default_value: 7 });
    expect(rows(all.output)).toEqual([
      [0, 0],
      [1, 0],
    ]);
    const huge = sparseFillEmptyRows({
      sp_input: sparse([[2, 2 ** 32 - 1, 2 ** 32 - 1]], ['a'], [3, 2 ** 32, 2 ** 32], 'string'),
      default_value: '',
    });
    expect(rows(huge.output)).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [2, 2 ** 32 - 1, 2 ** 32 - 1],
    ]);
  });

  it('matches the reference on random unordered rank-3 input with repeats', () => {
    const r = rng(5).next;
    const shape = [40, 3, 4];
    const tuples = Array.from({ length: 120 }, () => shape.map((d) => Math.floor(r() * d)));
    const vals = tuples.map((_, i) => i);
    const want = reference(tuples, vals, shape, -1);
    const out = sparseFillEmptyRows({ sp_input: sparse(tuples, vals, shape, 'int32'), default_value: -1 });
    expect(rows(out.output)).toEqual(want.outRows);
    expect(list(out.output.values)).toEqual(want.outVals);
    expect(list(out.empty_row_indicator.data)).toEqual(want.empty);
  });

  it('fills 1e6 rows around 3e5 unordered entries', () => {
    const r = rng(9).next;
    const n = 300_000;
    const tuples = Array.from({ length: n }, () => [Math.floor(r() * 1e6), Math.floor(r() * 1e9)]);
    const sp = sparse(
      tuples,
      tuples.map((_, i) => i),
      [1e6, 1e9],
      'int32',
    );
    const out = sparseFillEmptyRows({ sp_input: sp, default_value: -1 });
    let ok = true;
    for (let i = 1; i < out.output.values.length && ok; i++)
      ok = out.output.indices[(i - 1) * 2] <= out.output.indices[i * 2];
    expect(ok).toBe(true);
  });
});
