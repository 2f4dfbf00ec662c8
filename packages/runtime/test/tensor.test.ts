import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, Tensor, tensor } from '@sparse/runtime';

describe('Tensor', () => {
  it('converts nested arrays, scalars and typed arrays', () => {
    const t = tensor([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(t.dtype).toBe('int32');
    expect(t.shape).toEqual([2, 3]);
    expect(t.toArray()).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(tensor(2.5).shape).toEqual([]);
    expect(tensor(2.5).toArray()).toBe(2.5);
    expect(tensor(new Float64Array([1, 2, 3, 4]), undefined, [2, 2]).toArray()).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(tensor([true, false]).toArray()).toEqual([true, false]);
    expect(tensor(['1', '2'], 'int64').toArray()).toEqual([1n, 2n]);
  });

  it('needs a shape for a zero-sized dim', () => {
    expect(tensor([], 'float32', [0, 3]).shape).toEqual([0, 3]);
    expect(tensor([], 'float32').shape).toEqual([0]);
    expect(() => tensor([1, 2], 'float32', [3])).toThrow(InvalidArgumentError);
  });

  it('refuses ragged nesting, mixed kinds and lossy conversions', () => {
    expect(() => tensor([[1, 2], [3]])).toThrow(/not rectangular at \[1\]/);
    expect(() => tensor([1, 'a'])).toThrow(TypeError);
    expect(() => tensor([1.5], 'int32')).toThrow(/1.5 is not a valid int32 value/);
    expect(() => tensor([2 ** 31], 'int32')).toThrow(/does not fit in int32/);
    expect(() => new Tensor(new Float32Array(3), [2, 2], 'float32')).toThrow(/needs 4 values, got 3/);
    expect(() => new Tensor(new Float32Array(4), [2, 2], 'float64')).toThrow(TypeError);
  });
});
