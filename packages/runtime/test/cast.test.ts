import { describe, expect, it } from 'vitest';
import { sparse, SparseTensor } from '../src/index.js';
import { int64ToFloat32 } from '../src/cast.js';

// tf.cast of a SparseTensor: its values converted as TensorFlow's Cast kernel converts them on a CPU, its indices and
// dense shape kept, stored zeros kept.

const at = (values: unknown[], dtype: Parameters<typeof sparse.cast>[1] | 'float32' = 'float32') =>
  new SparseTensor(
    values.map((_, i) => [i]),
    values as never,
    [values.length + 1],
    dtype as never,
  );

describe('cast', () => {
  it('floats to int32 truncate toward zero; NaN and values out of range become the least int32', () => {
    const y = sparse.cast(at([1.9, -1.9, NaN, 3e9, -3e9, -0, 0.4, 2147483647, -2147483648.5], 'float64'), 'int32');
    expect(y.dtype).toBe('int32');
    expect(Array.from(y.values as Int32Array)).toEqual([
      1,
      -1,
      -(2 ** 31),
      -(2 ** 31),
      -(2 ** 31),
      0,
      0,
      2147483647,
      -(2 ** 31),
    ]);
    // A value that becomes 0 stays stored.
    expect(y.nnz).toBe(9);
    expect(y.indices).toEqual(at([1.9, -1.9, NaN, 3e9, -3e9, -0, 0.4, 1, 1], 'float64').indices);
  });

  it('floats to int64 likewise, exactly; int32 and bool to int64 exactly', () => {
    const y = sparse.cast(at([-2.5, 1e19, NaN, 2 ** 62], 'float64'), 'int64');
    expect(Array.from(y.values as BigInt64Array)).toEqual([-2n, -(2n ** 63n), -(2n ** 63n), 2n ** 62n]);
    expect(Array.from(sparse.cast(at([-7, 2 ** 31 - 1], 'int32'), 'int64').values as BigInt64Array)).toEqual([
      -7n,
      2n ** 31n - 1n,
    ]);
    expect(Array.from(sparse.cast(at([true, false], 'bool'), 'int64').values as BigInt64Array)).toEqual([1n, 0n]);
  });

  it('int64 to int32 keeps the low 32 bits', () => {
    const y = sparse.cast(at([2n ** 40n + 5n, -1n, 2n ** 31n], 'int64'), 'int32');
    expect(Array.from(y.values as Int32Array)).toEqual([5, -1, -(2 ** 31)]);
  });

  it('int64 to float32 rounds once, to nearest even: not twice through float64', () => {
    const v = 2n ** 60n + 2n ** 36n + 1n; // above the float32 tie: rounds up; through float64 it lands on the tie
    expect(int64ToFloat32(v)).toBe(2 ** 60 + 2 ** 37);
    expect(Math.fround(Number(v))).toBe(2 ** 60);
    expect(int64ToFloat32(-v)).toBe(-(2 ** 60 + 2 ** 37));
    expect(int64ToFloat32(2n ** 60n + 2n ** 36n)).toBe(2 ** 60); // a tie: to even
    expect(int64ToFloat32(2n ** 60n + 3n * 2n ** 36n)).toBe(2 ** 60 + 2 ** 38); // a tie: to even, up
    const y = sparse.cast(at([v, 3n, -(2n ** 63n)], 'int64'), 'float32');
    expect(Array.from(y.values as Float32Array)).toEqual([2 ** 60 + 2 ** 37, 3, -(2 ** 63)]);
    expect(Array.from(sparse.cast(at([2n ** 53n + 1n], 'int64'), 'float64').values as Float64Array)).toEqual([2 ** 53]);
  });

  it('to bool is whether a value is nonzero (NaN is); bool is 0 or 1; float64 to float32 rounds', () => {
    expect(Array.from(sparse.cast(at([0, NaN, -0, 2, -1e-45], 'float64'), 'bool').values as Uint8Array)).toEqual([
      0, 1, 0, 1, 1,
    ]);
    expect(Array.from(sparse.cast(at([0n, 5n], 'int64'), 'bool').values as Uint8Array)).toEqual([0, 1]);
    expect(Array.from(sparse.cast(at([true, false], 'bool'), 'float32').values as Float32Array)).toEqual([1, 0]);
    expect(Array.from(sparse.cast(at([0.1, 1e40], 'float64'), 'float32').values as Float32Array)).toEqual([
      Math.fround(0.1),
      Infinity,
    ]);
    expect(Array.from(sparse.cast(at([16777217], 'int32'), 'float32').values as Float32Array)).toEqual([16777216]);
  });

  it('the same dtype is a copy; the method chains', () => {
    const x = at([1.5, 2.5]);
    const y = x.cast('float32');
    expect(y).not.toBe(x);
    expect(Array.from(y.values as Float32Array)).toEqual([1.5, 2.5]);
    expect(Array.from(x.cast('int32').cast('float64').values as Float64Array)).toEqual([1, 2]);
  });

  it('refuses strings and what is not a SparseTensor or a dtype, naming the op', () => {
    expect(() => sparse.cast(at(['a'], 'string'), 'int32')).toThrow(TypeError);
    expect(() => sparse.cast(at([1]), 'string')).toThrow(/cast: TensorFlow casts no float32 to string/);
    expect(() => sparse.cast(at([1]), 'float16' as never)).toThrow(/cast: dtype must be one of the dtypes/);
    expect(() => sparse.cast([1, 2] as never, 'int32')).toThrow(/cast: sp_input must be a SparseTensor/);
  });
});
