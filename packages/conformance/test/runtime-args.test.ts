import { InvalidArgumentError, SparseTensor, Tensor } from '@sparse/runtime';
import { describe, expect, it } from 'vitest';
import { toRuntimeArgs, toRuntimeValue } from '../src/runtime-args.js';

describe('toRuntimeValue', () => {
  it('makes a SparseTensor of {sparse}, reading nan/inf/-inf in float values', () => {
    const st = toRuntimeValue({
      sparse: {
        indices: [
          [0, 1],
          [1, 0],
          [1, 2],
        ],
        values: ['nan', 'inf', '-inf'],
        dense_shape: [2, 3],
      },
      dtype: 'float64',
    }) as SparseTensor;
    expect(st).toBeInstanceOf(SparseTensor);
    expect(st.dtype).toBe('float64');
    expect(st.indices).toEqual([
      [0, 1],
      [1, 0],
      [1, 2],
    ]);
    expect(st.denseShape).toEqual([2, 3]);
    expect(Array.from(st.values as Float64Array)).toEqual([NaN, Infinity, -Infinity]);
  });

  it('keeps int64 digit strings exact past 2^53', () => {
    const st = toRuntimeValue({
      sparse: { indices: [[0], [1]], values: ['9007199254740993', -3], dense_shape: [2] },
      dtype: 'int64',
    }) as SparseTensor;
    expect(Array.from(st.values as BigInt64Array)).toEqual([9007199254740993n, -3n]);
  });

  it('reads dense_shape and indices written as digit strings, exactly past 2^53, and refuses them past int64', () => {
    const st = toRuntimeValue({
      sparse: { indices: [['0', '2']], values: [1], dense_shape: ['2', '3'] },
      dtype: 'int32',
    }) as SparseTensor;
    expect([st.indices, st.denseShape]).toEqual([[[0, 2]], [2, 3]]);
    const wide = { sparse: { indices: [['9007199254740992']], values: [1], dense_shape: ['9007199254740993'] } };
    expect((toRuntimeValue({ ...wide, dtype: 'int32' }) as SparseTensor).exactIndexData).toEqual(
      BigInt64Array.of(2n ** 53n),
    );
    const tooBig = { sparse: { indices: [], values: [], dense_shape: ['9223372036854775808'] }, dtype: 'int32' };
    expect(() => toRuntimeValue(tooBig)).toThrow(InvalidArgumentError);
  });

  it('leaves strings alone in a string tensor', () => {
    const st = toRuntimeValue({
      sparse: { indices: [[0]], values: ['inf'], dense_shape: [1] },
      dtype: 'string',
    }) as SparseTensor;
    expect(st.values).toEqual(['inf']);
  });

  it('makes a dense Tensor of {dense}, with `shape` for zero-sized dims', () => {
    const t = toRuntimeValue({
      dense: [
        [1, 'nan'],
        [3, 4],
      ],
      dtype: 'float32',
    }) as Tensor;
    expect(t).toBeInstanceOf(Tensor);
    expect([t.shape, t.dtype]).toEqual([[2, 2], 'float32']);
    expect(Array.from(t.dataSync() as Float32Array)).toEqual([1, NaN, 3, 4]);
    const empty = toRuntimeValue({ dense: [], shape: [0, 3], dtype: 'int32' }) as Tensor;
    expect([empty.shape, empty.dtype]).toEqual([[0, 3], 'int32']);
    const scalar = toRuntimeValue({ dense: true, dtype: 'bool' }) as Tensor;
    expect([scalar.shape, scalar.toArray()]).toEqual([[], true]);
  });

  it('converts a list of tensors item by item', () => {
    const list = toRuntimeValue([
      { sparse: { indices: [[0]], values: [1], dense_shape: [2] }, dtype: 'int32' },
      { sparse: { indices: [[1]], values: [2], dense_shape: [2] }, dtype: 'int32' },
    ]) as SparseTensor[];
    expect(list).toHaveLength(2);
    expect(list.every((s) => s instanceof SparseTensor)).toBe(true);
    expect(list[1].indices).toEqual([[1]]);
  });

  it('passes plain values through unchanged', () => {
    const shape = [2, 3];
    const nested = [
      [1, 2],
      [3, 4],
    ];
    expect(toRuntimeValue(shape)).toBe(shape);
    expect(toRuntimeValue(nested)).toBe(nested);
    for (const v of [3, 2.5, true, 'x', 'nan', null]) expect(toRuntimeValue(v)).toBe(v);
    expect(toRuntimeArgs({ axis: -1, keepdims: false, perm: null })).toEqual({ axis: -1, keepdims: false, perm: null });
  });
});
