import { describe, expect, it } from 'vitest';
import { createRuntime, getOpInfo, InvalidArgumentError, SparseTensor, sparse, tensor } from '../src/index.js';

// What a tensor holds between calls, and how it is given back: dispose() (a tensor), rt.dispose() (a runtime), the
// byte budget (what a backend keeps prepared counts against it), and the pool of disposed results' buffers.

/** A rows × cols float32 matrix in canonical order with `perRow` entries a row, columns shifted by `shift`. */
function matrix(rows: number, cols: number, perRow: number, shift = 0): SparseTensor {
  const step = Math.floor(cols / perRow);
  const indices = new Float64Array(rows * perRow * 2);
  const values = new Float32Array(rows * perRow);
  for (let r = 0, i = 0; r < rows; r++) {
    for (let j = 0; j < perRow; j++, i++) {
      indices[2 * i] = r;
      indices[2 * i + 1] = j * step + ((r + shift) % step);
      values[i] = ((r * 3 + j) % 11) - 5;
    }
  }
  return new SparseTensor(indices, values, [rows, cols], 'float32');
}

/** Whether two typed arrays hold the same elements (toEqual walks a million of them slowly). */
function same(x: unknown, y: unknown): boolean {
  const [a, b] = [x as ArrayLike<number>, y as ArrayLike<number>];
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

function errorOf(call: () => unknown): Error {
  try {
    call();
  } catch (e) {
    return e as Error;
  }
  throw new Error('the call was not refused');
}

describe('a disposed tensor', () => {
  it('keeps its shape and dtype, refuses its data, and is refused by ops, naming the argument', () => {
    const st = new SparseTensor([[0, 1]], [2], [3, 4], 'float32');
    expect(st.isDisposed).toBe(false);
    st.dispose();
    st.dispose(); // again: nothing
    expect(st.isDisposed).toBe(true);
    expect([st.denseShape, st.dtype, st.rank, st.nnz]).toEqual([[3, 4], 'float32', 2, 1]);
    expect(String(st)).toBe('SparseTensor(disposed, dense_shape=[3,4], dtype=float32)');
    for (const read of [
      () => st.values,
      () => st.indexData,
      () => st.indices,
      () => st.exactIndexData,
      () => st.toJSON(),
      () => st.toData(),
      () => st.withValues([1]),
    ]) {
      const e = errorOf(read);
      expect(e).toBeInstanceOf(InvalidArgumentError);
      expect(e.message).toMatch(/^SparseTensor\.\w+: the tensor was disposed/);
    }
    const e = errorOf(() => sparse.reduceSum(st));
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e.message).toBe(
      'sparse_reduce_sum: sp_input: the SparseTensor was disposed (dispose() gave its memory back), so it holds no data',
    );
    expect(errorOf(() => sparse.concat(1, [st, st])).message).toMatch(
      /^sparse_concat: sp_inputs\[0\]: the SparseTensor/,
    );
  });

  it('as a dense Tensor too', () => {
    const t = tensor([1, 2, 3], 'float32');
    t.dispose();
    expect([t.shape, t.dtype, t.size, t.isDisposed]).toEqual([[3], 'float32', 3, true]);
    expect(String(t)).toBe('Tensor(disposed, shape=[3], dtype=float32)');
    expect(errorOf(() => t.dataSync()).message).toMatch(/^Tensor\.dataSync: the tensor was disposed/);
    expect(errorOf(() => t.toArray()).message).toMatch(/^Tensor\.toArray: the tensor was disposed/);
    const st = new SparseTensor([[0]], [2], [3], 'float32');
    expect(errorOf(() => sparse.denseCwiseMul(st, t)).message).toBe(
      'sparse_dense_cwise_mul: dense: the Tensor was disposed (dispose() gave its memory back), so it holds no data',
    );
  });

  it('leaves a tensor that shares its arrays as it was', () => {
    const a = matrix(300, 300, 60); // large enough that its buffers are counted for the pool
    const b = a.withValues(new Float32Array(a.nnz).fill(2));
    const indices = a.indexData;
    a.dispose();
    expect(b.indexData).toEqual(indices);
    expect(Array.from(sparse.reduceSum(b).dataSync() as Float32Array)).toEqual([2 * a.nnz]);
    // The next results of that size do not take b's indices for theirs.
    const c = matrix(300, 300, 60, 7);
    for (let i = 0; i < 3; i++) sparse.reorder(c).dispose();
    expect(b.indexData).toEqual(indices);
  });
});

describe('the memory a runtime holds between calls', async () => {
  const js = await createRuntime({ backend: 'js' });

  it('keeps a tensor prepared on wasm, and dispose() gives it back', async () => {
    const rt = await createRuntime({ backend: 'wasm' });
    const a = matrix(2000, 600, 20);
    const want = js.sparse.reduceSum(a, { axis: 1 }).dataSync();
    expect(rt.memory().residentBytes).toBe(0);
    expect(rt.sparse.reduceSum(a, { axis: 1 }).dataSync()).toEqual(want);
    const kept = rt.memory().residentBytes;
    expect(kept).toBeGreaterThanOrEqual(a.nnz * 12); // i32 indices and float32 values
    expect(rt.sparse.reduceSum(a, { axis: 1 }).dataSync()).toEqual(want);
    expect(rt.memory().residentBytes).toBe(kept);
    a.dispose();
    expect(rt.memory().residentBytes).toBe(0);
  });

  it("keeps a dense Tensor's own data prepared on wasm (an embedding table), but not a plain typed array", async () => {
    const rt = await createRuntime({ backend: 'wasm' });
    const rows = 64000;
    const data = Float32Array.from({ length: rows }, (_, i) => (i % 7) - 3);
    const ids = new SparseTensor(
      [
        [0, 0],
        [0, 1],
        [1, 0],
      ],
      [3, rows - 1, 0],
      [2, 2],
      'int32',
    );
    const want = js.sparse.embeddingLookupSparse(data, ids, null).dataSync();
    // A typed array is the caller's, who may change it: copied in for each call, never kept.
    expect(rt.sparse.embeddingLookupSparse(data, ids, null).dataSync()).toEqual(want);
    expect(rt.memory().residentBytes).toBe(0);
    const table = tensor(data);
    expect(rt.sparse.embeddingLookupSparse(table, ids, null).dataSync()).toEqual(want);
    expect(rt.memory().residentBytes).toBe(data.byteLength);
    expect(rt.sparse.embeddingLookupSparse(table, ids, null, { combiner: 'sum' }).dataSync()).not.toEqual(want);
    expect(rt.memory().residentBytes).toBe(data.byteLength);
    table.dispose();
    expect(rt.memory().residentBytes).toBe(0);
  });

  it('gives everything back on rt.dispose(), and stays usable', async () => {
    const rt = await createRuntime({ backend: 'wasm' });
    const a = matrix(2000, 600, 20);
    const b = matrix(2000, 600, 20, 3);
    rt.sparse.add(a, b);
    expect(rt.memory().residentBytes).toBeGreaterThan(0);
    await rt.dispose();
    expect(rt.memory()).toEqual({ residentBytes: 0, pooledBytes: 0 });
    expect(rt.sparse.add(a, b).toJSON()).toEqual(js.sparse.add(a, b).toJSON());
  });

  it('counts what the backend keeps prepared against the byte budget', async () => {
    // A budget that holds a's prepared form beside a small call, but not beside its dense form.
    const a = matrix(2000, 600, 20);
    const need = 2000 * 600 * (4 + getOpInfo('sparse_tensor_to_dense')!.workspace);
    const maxBytes = need + 100_000;
    const rt = await createRuntime({ backend: 'wasm', maxBytes });
    rt.sparse.reduceSum(a, { axis: 1 });
    expect(rt.memory().residentBytes).toBeGreaterThan(100_000);
    const dense = rt.sparse.tensorToDense(a);
    expect(rt.memory().residentBytes).toBeLessThanOrEqual(maxBytes - need);
    expect(same(dense.dataSync(), js.sparse.tensorToDense(a).dataSync())).toBe(true);
    // Small calls keep it again.
    rt.sparse.reduceSum(a, { axis: 1 });
    expect(rt.memory().residentBytes).toBeGreaterThan(100_000);
  });

  it("reuses a disposed result's buffer for the next result of its size, zeroed where it must be", async () => {
    for (const rt of [js, await createRuntime({ backend: 'wasm' })]) {
      await rt.dispose(); // an empty pool
      const x = matrix(400, 300, 30);
      const y = matrix(400, 300, 30, 5);
      const first = rt.sparse.tensorToDense(x);
      const bytes = 400 * 300 * 4;
      first.dispose();
      expect(rt.memory().pooledBytes).toBe(bytes);
      // Its buffer, with x's values still in it, becomes y's dense form: every cell y does not store must be 0.
      const second = rt.sparse.tensorToDense(y);
      expect(rt.memory().pooledBytes).toBe(0);
      expect(same(second.dataSync(), js.sparse.tensorToDense(y).dataSync())).toBe(true);
      second.dispose();
      await rt.dispose();
    }
  });
});
