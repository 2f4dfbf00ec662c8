import { describe, expect, it } from 'vitest';
import { SparseTensor, Tensor, sparse, tensor } from '@sparse/runtime';

// What a SparseTensor or Tensor was checked to be when it was made stays true: nothing given to it, and nothing it
// gives out, can change it afterwards. (Test files are ES modules, so strict: writing a read-only property throws.)

const float32 = () =>
  new SparseTensor(
    [
      [0, 0],
      [1, 1],
    ],
    [1, 2],
    [2, 2],
    'float32',
  );

describe('SparseTensor', () => {
  it('refuses a new dense shape, dtype, values or indices', () => {
    const st = float32();
    expect(() => ((st.denseShape as number[])[1] = 3.5)).toThrow(TypeError);
    expect(() => ((st as { values: unknown }).values = ['a', 'b'])).toThrow(TypeError);
    expect(() => ((st as { dtype: string }).dtype = 'string')).toThrow(TypeError);
    expect(() => ((st as { indexData: unknown }).indexData = new Float64Array(4))).toThrow(TypeError);
    expect(() => Object.defineProperty(st, 'values', { value: ['a', 'b'] })).toThrow(TypeError);
    expect(sparse.reorder(st).shape).toEqual([2, 2]);
    expect(sparse.reduceSum(st).toArray()).toBe(3);
  });

  it('gives out copies: writing to them changes nothing the ops see', () => {
    const st = float32();
    st.values[0] = NaN;
    st.indexData[0] = 7;
    st.shape[0] = 9;
    st.indices[0][0] = 5;
    const data = st.toData();
    data.values[0] = NaN;
    data.indices[1] = 3;
    data.shape[1] = 1;
    expect(sparse.reduceSum(st).toArray()).toBe(3);
    expect(st.indices).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(st.shape).toEqual([2, 2]);
  });

  it('copies what it is made from: the caller writing to its arrays afterwards changes nothing', () => {
    const indices = new Int32Array([0, 0, 1, 1]);
    const values = new Float32Array([1, 2]);
    const shape = [2, 2];
    const st = new SparseTensor(indices, values, shape);
    const json = { indices: [[0], [1]], values: [1, 2], dense_shape: [2] };
    const fromJson = SparseTensor.fromJSON(json);
    const fromData = SparseTensor.fromData(st.toData());
    const newValues = new Float32Array([5, 6]);
    const withValues = st.withValues(newValues);
    indices[2] = 0;
    values[0] = 100;
    shape[0] = 1;
    json.values[0] = 100;
    json.dense_shape[0] = 1;
    newValues[0] = 100;
    expect(sparse.toDense(st).toArray()).toEqual([
      [1, 0],
      [0, 2],
    ]);
    expect(sparse.toDense(fromJson).toArray()).toEqual([1, 2]);
    expect(sparse.reduceSum(fromData).toArray()).toBe(3);
    expect(sparse.reduceSum(withValues).toArray()).toBe(11);
  });

  it('op results are as immutable as what was given', () => {
    const out = sparse.reorder(float32());
    expect(() => ((out.denseShape as number[])[0] = 0)).toThrow(TypeError);
    out.values[0] = 100;
    expect(sparse.reduceSum(out).toArray()).toBe(3);
  });
});

describe('Tensor', () => {
  it('refuses a new shape, dtype or data, and gives out copies of its data', () => {
    const t = tensor([1, 2, 3, 4], 'float32', [2, 2]);
    expect(() => ((t.shape as number[])[0] = 4)).toThrow(TypeError);
    expect(() => ((t as { data: unknown }).data = new Float32Array(4))).toThrow(TypeError);
    expect(() => ((t as { dtype: string }).dtype = 'int32')).toThrow(TypeError);
    t.dataSync()[0] = 100;
    t.toData().data[1] = 100;
    expect(t.toArray()).toEqual([
      [1, 2],
      [3, 4],
    ]);
    const st = new SparseTensor([[0, 0]], [1], [2, 2], 'float32');
    expect(sparse.add(st, t).toArray()).toEqual([
      [2, 2],
      [3, 4],
    ]);
  });

  it('copies what it is made from', () => {
    const data = new Float32Array([1, 2]);
    const shape = [2];
    const made = new Tensor(data, shape, 'float32');
    const converted = tensor(data);
    data[0] = 100;
    shape[0] = 1;
    expect(made.toArray()).toEqual([1, 2]);
    expect(made.shape).toEqual([2]);
    expect(converted.toArray()).toEqual([1, 2]);
  });
});
