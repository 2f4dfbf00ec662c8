import { expect, it } from 'vitest';
import { sparse, SparseTensor } from '../src/index.js';

// Repeated indices summed, as PyTorch's coalesce() and scipy's sum_duplicates().

it('sums repeated indices in their order and puts the entries in canonical order', () => {
  const st = new SparseTensor(
    [
      [1, 0],
      [0, 2],
      [1, 0],
      [0, 2],
      [0, 0],
    ],
    Float32Array.of(1e8, 1, 1, 2, 5),
    [2, 3],
  );
  const c = st.coalesce();
  expect(c.indices).toEqual([
    [0, 0],
    [0, 2],
    [1, 0],
  ]);
  // 1e8 + 1 rounds back to 1e8 in float32: the sum is taken in entry order, each step rounded.
  expect(Array.from(c.values as Float32Array)).toEqual([5, 3, Math.fround(Math.fround(1e8) + 1)]);
  expect(c.toJSON()).toEqual(sparse.coalesce(st).toJSON());
  expect(c.denseShape).toEqual([2, 3]);
});

it('wraps int32 and int64 as TensorFlow does; bool is true where any is', () => {
  const i32 = new SparseTensor([[0], [0]], Int32Array.of(2 ** 31 - 1, 1), [1], 'int32');
  expect(Array.from(i32.coalesce().values as Int32Array)).toEqual([-(2 ** 31)]);
  const i64 = new SparseTensor([[0], [0]], BigInt64Array.of(2n ** 63n - 1n, 1n), [1], 'int64');
  expect(Array.from(i64.coalesce().values as BigInt64Array)).toEqual([-(2n ** 63n)]);
  const b = new SparseTensor([[1], [1], [0]], [false, true, false], [2], 'bool');
  expect(b.coalesce().toJSON().values).toEqual([false, true]);
});

it('keeps a tensor without repeats as it is, sorted; refuses strings', () => {
  const st = new SparseTensor([[2], [0]], Float64Array.of(1.5, 2.5), [3], 'float64');
  expect(st.coalesce().toJSON()).toEqual({
    indices: [[0], [2]],
    values: [2.5, 1.5],
    dense_shape: [3],
    dtype: 'float64',
  });
  expect(new SparseTensor([], Float32Array.of(), [0, 4]).coalesce().nnz).toBe(0);
  expect(() => new SparseTensor([[0]], ['a'], [1]).coalesce()).toThrow('coalesce: string values cannot be summed');
});
