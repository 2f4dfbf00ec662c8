import { describe, expect, it } from 'vitest';
import { CsrMatrix, SparseTensor, Tensor, createRuntime, sparse, tensor } from '@sparse/runtime';

// A typed-array subclass may lie through every method and getter it owns; integer-indexed reads and the intrinsic
// getters cannot lie. What the tensors copy must come from those alone, or the caller keeps a hold on their storage.

class SliceIsThis extends Float32Array {
  override slice(): this {
    return this;
  }
  override subarray(): this {
    return this;
  }
}

class LyingLength extends Float32Array {
  override get length(): number {
    return 1;
  }
}

class LyingBuffer extends Float32Array {
  override get buffer(): ArrayBuffer {
    return new ArrayBuffer(0);
  }
}

const sumOf = (a: ArrayLike<number>) => Array.from(a).reduce((s, x) => s + x, 0);

describe('a typed-array subclass whose slice() returns itself', () => {
  it('does not keep its hold on a SparseTensor: js and wasm agree after the caller writes to it', async () => {
    const js = await createRuntime({ backend: 'js' });
    const wasm = await createRuntime({ backend: 'wasm' });
    const values = new SliceIsThis(200).fill(100);
    const indices = Array.from({ length: 200 }, (_, i) => [i]);
    const st = new SparseTensor(indices, values, [200]);
    expect(js.sparse.reduceSum(st).toArray()).toBe(20000);
    expect(wasm.sparse.reduceSum(st).toArray()).toBe(20000);
    values.fill(900);
    expect(js.sparse.reduceSum(st).toArray()).toBe(20000);
    expect(wasm.sparse.reduceSum(st).toArray()).toBe(20000);
    expect(sumOf(st.values as Float32Array)).toBe(20000);
  });

  it('nor on a withValues result', () => {
    const st = new SparseTensor([[0], [1]], [1, 2], [2]);
    const values = new SliceIsThis([5, 6]);
    const out = st.withValues(values);
    values[0] = 100;
    expect(sparse.reduceSum(out).toArray()).toBe(11);
  });

  it('nor on a Tensor, made by new Tensor or tensor()', () => {
    const data = new SliceIsThis([1, 2, 3]);
    const a = new Tensor(data, [3], 'float32');
    const b = tensor(data);
    data[0] = 100;
    expect(Array.from(a.dataSync() as Float32Array)).toEqual([1, 2, 3]);
    expect(Array.from(b.dataSync() as Float32Array)).toEqual([1, 2, 3]);
  });

  it('nor on a CsrMatrix', () => {
    const values = new SliceIsThis([1, 2]);
    const m = new CsrMatrix([0, 1, 2], [0, 1], values, [2, 2]);
    values[0] = 100;
    expect(Array.from(m.values as Float32Array)).toEqual([1, 2]);
  });
});

describe('a typed-array subclass whose length or buffer getter lies', () => {
  it('is read by its true length', () => {
    const values = new LyingLength([1, 2, 3]);
    const st = new SparseTensor([[0], [1], [2]], values, [3]);
    expect(st.nnz).toBe(3);
    expect(sparse.reduceSum(st).toArray()).toBe(6);
    const t = new Tensor(new LyingLength([1, 2, 3]), [3], 'float32');
    expect(t.size).toBe(3);
    expect(Array.from(t.dataSync() as Float32Array)).toEqual([1, 2, 3]);
  });

  it('is copied from its true buffer', async () => {
    const wasm = await createRuntime({ backend: 'wasm' });
    const st = new SparseTensor([[0], [1], [2]], new LyingBuffer([1, 2, 3]), [3]);
    expect(wasm.sparse.reduceSum(st).toArray()).toBe(6);
    const product = wasm.sparse.denseCwiseMul(st, new LyingBuffer([1, 2, 3]));
    expect(Array.from(product.values as Float32Array)).toEqual([1, 4, 9]);
  });
});
