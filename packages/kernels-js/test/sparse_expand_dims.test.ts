import { describe, expect, it } from 'vitest';
import { sparseExpandDims } from '../src/kernels/sparse_expand_dims.js';
import type { DType, SparseData } from '@sparse/kernel-abi';
import { sparse } from '@sparse/test-kit/plain-data';
import { list, rows } from './helpers.js';

const expand = (sp_input: SparseData, axis: number) => sparseExpandDims({ sp_input, axis }).output;

describe('sparse_expand_dims kernel', () => {
  it('gives the shapes of the tf.sparse.expand_dims example', () => {
    const sp = sparse(
      [
        [0, 0],
        [1, 2],
      ],
      [1.5, 2.5],
      [2, 3],
      'float32',
    );
    expect(expand(sp, 0).shape).toEqual([1, 2, 3]);
    expect(rows(expand(sp, 0))).toEqual([
      [0, 0, 0],
      [0, 1, 2],
    ]);
    expect(expand(sp, 1).shape).toEqual([2, 1, 3]);
    expect(rows(expand(sp, 1))).toEqual([
      [0, 0, 0],
      [1, 0, 2],
    ]);
    expect(expand(sp, -1).shape).toEqual([2, 3, 1]);
    expect(rows(expand(sp, -1))).toEqual([
      [0, 0, 0],
      [1, 2, 0],
    ]);
  });

  it('inserts a 0 at every allowed axis, positive and negative, of a rank-3 input, every dtype', () => {
    const tuples = [
      [1, 2, 3],
      [0, 4, 1],
      [1, 0, 0],
    ];
    const shape = [2, 5, 4];
    const dtypes: DType[] = ['float32', 'float64', 'int32', 'int64', 'bool', 'string'];
    for (let axis = -4; axis <= 3; axis++) {
      const at = axis < 0 ? axis + 4 : axis;
      const dtype = dtypes[(axis + 4) % dtypes.length];
      const vals = dtype === 'bool' ? [true, false, true] : dtype === 'string' ? ['a', 'b', 'c'] : [7, 8, 9];
      const out = expand(sparse(tuples, vals, shape, dtype), axis);
      expect(out.shape).toEqual([...shape.slice(0, at), 1, ...shape.slice(at)]);
      expect(rows(out)).toEqual(tuples.map((t) => [...t.slice(0, at), 0, ...t.slice(at)]));
      expect(list(out.values)).toEqual(list(sparse(tuples, vals, shape, dtype).values));
      expect(out.dtype).toBe(dtype);
    }
  });

  it('handles rank 0, empty input and huge shapes, and does not alias the input', () => {
    const r0 = expand(sparse([[]], [4.5], [], 'float64'), 0);
    expect(r0.shape).toEqual([1]);
    expect(rows(r0)).toEqual([[0]]);
    const empty = expand(sparse([], [], [0, 3], 'int32'), -1);
    expect(empty.shape).toEqual([0, 3, 1]);
    expect(empty.indices.length).toBe(0);
    const huge = expand(
      sparse([[4095, 4095, 4095, 4095, 4095, 4095]], [1], [4096, 4096, 4096, 4096, 4096, 4096], 'int32'),
      3,
    );
    expect(rows(huge)).toEqual([[4095, 4095, 4095, 0, 4095, 4095, 4095]]);
    const sp = sparse([[1]], [2], [3], 'int32');
    const out = expand(sp, 0);
    (out.values as Int32Array)[0] = 99;
    expect(list(sp.values)).toEqual([2]);
  });
});
