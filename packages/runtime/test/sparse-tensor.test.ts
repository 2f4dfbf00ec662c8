import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, SparseTensor, sparse, tensor } from '@sparse/runtime';

describe('SparseTensor', () => {
  it('takes nested indices and infers dtypes as TensorFlow converts Python values', () => {
    const st = new SparseTensor(
      [
        [0, 0],
        [1, 2],
      ],
      [1, 2],
      [3, 4],
    );
    expect(st.dtype).toBe('int32');
    expect(st.rank).toBe(2);
    expect(st.nnz).toBe(2);
    expect(st.indices).toEqual([
      [0, 0],
      [1, 2],
    ]);
    expect(Array.from(st.indexData)).toEqual([0, 0, 1, 2]);
    expect(st.shape).toEqual([3, 4]);
    expect(new SparseTensor([[0]], [1.5], [2]).dtype).toBe('float32');
    expect(new SparseTensor([[0]], [2 ** 40], [2]).dtype).toBe('int64');
    expect(new SparseTensor([[0]], [true], [2]).dtype).toBe('bool');
    expect(new SparseTensor([[0]], ['a'], [2]).dtype).toBe('string');
    expect(new SparseTensor([], [], [2]).dtype).toBe('float32');
  });

  it('takes flat typed indices and typed values', () => {
    const st = new SparseTensor(new Int32Array([0, 1, 2, 3]), new Float64Array([5, 6]), [3, 4]);
    expect(st.dtype).toBe('float64');
    expect(st.indices).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it('keeps int64 exact beyond 2^53', () => {
    const big = 2n ** 62n + 1n;
    const st = new SparseTensor([[1]], [big], [3]);
    expect(st.dtype).toBe('int64');
    expect(st.values[0]).toBe(big);
    const json = st.toJSON();
    expect(json.values).toEqual([big.toString()]);
    const back = SparseTensor.fromJSON(json);
    expect(back.values[0]).toBe(big);
    expect(sparse.toDense(back).toArray()).toEqual([0n, big, 0n]);
  });

  it('refuses malformed parts with errors that name them', () => {
    expect(
      () =>
        new SparseTensor(
          [
            [0, 0],
            [1, 1],
          ],
          [1],
          [2, 2],
        ),
    ).toThrow(/indices has 2 rows but values has 1 entries/);
    expect(() => new SparseTensor([[0, 0, 0]], [1], [2, 2])).toThrow(InvalidArgumentError);
    expect(() => new SparseTensor([[0, 0.5]], [1], [2, 2])).toThrow(/indices\[0\]\[1\] = 0.5 is not a whole number/);
    expect(() => new SparseTensor([[0, 0]], [1], [2, -1])).toThrow(/dense_shape\[1\] = -1 is not a dim/);
    expect(() => new SparseTensor([[0, 0]], [1], [2, NaN])).toThrow(/dense_shape\[1\] = NaN/);
    expect(() => new SparseTensor([[0, 0]], [{}], [2, 2])).toThrow(TypeError);
    expect(() => new SparseTensor([[0, 0]], ['a'], [2, 2], 'float32')).toThrow(TypeError);
    expect(() => new SparseTensor([[0, 0]], [1], [2, 2], 'float16' as never)).toThrow(/unknown dtype/);
    expect(() => new SparseTensor(new Float64Array(3), [1, 2], [2, 2])).toThrow(
      /holds 3 numbers; 2 values of rank 2 need 4/,
    );
  });

  it('withValues keeps indices and shape (the seed example)', () => {
    const st = sparse.fromDense([
      [1, 0, 2, 0],
      [3, 0, 0, 4],
    ]);
    expect(sparse.toDense(st.withValues([10, 20, 30, 40])).toArray()).toEqual([
      [10, 0, 20, 0],
      [30, 0, 0, 40],
    ]);
    expect(() => st.withValues([1])).toThrow(/new_values has 1 entries, the tensor has 4/);
  });

  it('mul and div broadcast the dense side; implicit zeros stay absent even against inf', () => {
    const st = new SparseTensor(
      [
        [0, 0],
        [1, 2],
      ],
      [1, 2],
      [3, 4],
      'float32',
    );
    const m = st.mul(tensor([Infinity, 1, 3, 1], 'float32'));
    expect(m.indices).toEqual([
      [0, 0],
      [1, 2],
    ]);
    expect(Array.from(m.values as Float32Array)).toEqual([Infinity, 6]);
    const d = st.div(tensor([[2], [4], [8]], 'float32'));
    expect(Array.from(d.values as Float32Array)).toEqual([0.5, 0.5]);
  });

  it('prints readably', () => {
    const st = new SparseTensor(
      [
        [0, 0],
        [1, 2],
      ],
      [1, 2],
      [3, 4],
    );
    expect(st.toString()).toBe('SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3,4], dtype=int32)');
    expect(st.toDense().toString()).toBe(
      'Tensor([[1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]], shape=[3,4], dtype=int32)',
    );
  });
});
