import { describe, expect, it } from 'vitest';
import {
  CsrMatrix,
  InvalidArgumentError,
  ResourceExhaustedError,
  SparseTensor,
  createRuntime,
  sparse,
  tensor,
} from '@sparse/runtime';

// CsrMatrix as an app meets it: made from its parts or from a SparseTensor, checked and copied, immutable, read
// back, disposed; and the byte budget checked before a sparse × sparse product is formed.

const rows = () => new CsrMatrix([0, 2, 3], [0, 2, 1], [1, 2, 3], [2, 3], 'float32');

describe('CsrMatrix', () => {
  it('holds its parts, with the batch pointers derived, and reads them back', () => {
    const m = rows();
    expect(Array.from(m.rowPointers)).toEqual([0, 2, 3]);
    expect(Array.from(m.colIndices)).toEqual([0, 2, 1]);
    expect(Array.from(m.values)).toEqual([1, 2, 3]);
    expect(Array.from(m.batchPointers)).toEqual([0, 3]);
    expect(m.denseShape).toEqual([2, 3]);
    expect([m.rank, m.nnz, m.dtype]).toEqual([2, 3, 'float32']);
    expect(m.toDense().toArray()).toEqual([
      [1, 0, 2],
      [0, 3, 0],
    ]);
    expect(m.toSparse().indices).toEqual([
      [0, 0],
      [0, 2],
      [1, 1],
    ]);
    expect(CsrMatrix.fromJSON(m.toJSON()).toJSON()).toEqual(m.toJSON());
    expect(String(m)).toBe(
      'CsrMatrix(row_pointers=[0, 2, 3], col_indices=[0, 2, 1], values=[1, 2, 3], dense_shape=[2,3], dtype=float32)',
    );
  });

  it('comes from a SparseTensor and multiplies as scipy and TensorFlow do', () => {
    const a = CsrMatrix.fromSparseTensor(
      new SparseTensor(
        [
          [0, 0],
          [0, 2],
          [1, 1],
        ],
        [1, 2, 3],
        [2, 3],
        'float64',
      ),
    );
    const b = CsrMatrix.fromJSON({
      row_pointers: [0, 1, 2, 3],
      col_indices: [1, 0, 0],
      values: [4, 5, 6],
      dense_shape: [3, 2],
      dtype: 'float64',
    });
    const c = sparse.matrixSparseMatMul(a, b);
    expect(c.toDense().toArray()).toEqual([
      [12, 4],
      [15, 0],
    ]);
    expect(sparse.matrixMatMul(a, tensor([[1], [1], [1]], 'float64')).toArray()).toEqual([[3], [3]]);
    expect(sparse.matrixTranspose(a).denseShape).toEqual([3, 2]);
  });

  it('is immutable: frozen, its arrays copies, what it was made from copied', () => {
    const cols = [0, 2, 1];
    const m = new CsrMatrix([0, 2, 3], cols, [1, 2, 3], [2, 3], 'float32');
    cols[0] = 1;
    m.colIndices[0] = 2;
    m.values[0] = 9;
    expect(Array.from(m.colIndices)).toEqual([0, 2, 1]);
    expect(Array.from(m.values)).toEqual([1, 2, 3]);
    expect(Object.isFrozen(m) && Object.isFrozen(m.denseShape)).toBe(true);
  });

  it('refuses what is not a CSR matrix, naming the part and the index', () => {
    const bad = (rp: number[], ci: number[], v: number[], shape: number[], match: RegExp) =>
      expect(() => new CsrMatrix(rp, ci, v, shape, 'float32')).toThrow(match);
    bad([0, 2, 1], [0, 1], [1, 2], [2, 2], /row_pointers\[2\] = 1 is below the pointer before it \(2\)/);
    bad([1, 1], [0], [1], [1, 2], /row_pointers\[0\] = 1: each batch's row pointers start at 0/);
    bad([0, 1, 3], [0, 1], [1, 2], [2, 2], /count 3 entries/);
    bad([0, 1], [2], [1], [1, 2], /col_indices\[0\] = 2 is out of bounds: the matrix has 2 columns/);
    bad([0, 2], [1, 1], [1, 2], [1, 2], /col_indices\[1\] = 1 is not above the column before it/);
    bad([0, 1], [0], [1], [2], /rank 2 or 3/);
    bad([0, 1, 1], [0], [1], [1, 2], /must hold batch \* \(rows \+ 1\) = 2 pointers/);
    expect(() => new CsrMatrix([0, 1], [0], [1], [1, 2], 'float32')).not.toThrow();
    expect(() => new CsrMatrix([0, 0.5], [0], [1], [1, 2])).toThrow(InvalidArgumentError);
    expect(() => new CsrMatrix([0, '1' as never], [0], [1], [1, 2])).toThrow(TypeError);
    expect(() =>
      CsrMatrix.fromJSON({
        row_pointers: [0, 1],
        col_indices: [0],
        values: [1],
        dense_shape: [1, 2],
        batch_pointers: [0, 2],
      }),
    ).toThrow(/batch_pointers must be \[0,1\]/);
    expect(() =>
      CsrMatrix.fromJSON({ row_pointers: [0], col_indices: [], values: [], dense_shape: [0, 1], extra: 1 }),
    ).toThrow(TypeError);
  });

  it('a batch: each matrix with its own row pointers from 0', () => {
    const m = new CsrMatrix([0, 1, 0, 0, 0, 2], [1, 0, 1], [1, 2, 3], [3, 1, 2], 'float64');
    expect(Array.from(m.batchPointers)).toEqual([0, 1, 1, 3]);
    expect(m.toSparse().indices).toEqual([
      [0, 0, 1],
      [2, 0, 0],
      [2, 0, 1],
    ]);
  });

  it('once disposed, keeps its shape and refuses its data and ops', () => {
    const m = rows();
    m.dispose();
    expect(m.isDisposed).toBe(true);
    expect([m.nnz, m.denseShape]).toEqual([3, [2, 3]]);
    expect(() => m.values).toThrow(/disposed/);
    expect(() => sparse.csrSparseMatrixToDense(m)).toThrow(/sparse_input: the CsrMatrix was disposed/);
  });

  it('refuses a product past the byte budget before forming it, from a bound known up front', async () => {
    // An n×1 by 1×n outer product of full vectors has n² entries.
    const n = 1000;
    const col = new CsrMatrix(
      Array.from({ length: n + 1 }, (_, i) => i),
      new Array(n).fill(0),
      new Array(n).fill(1),
      [n, 1],
      'float32',
    );
    const row = new CsrMatrix(
      [0, n],
      Array.from({ length: n }, (_, j) => j),
      new Array(n).fill(1),
      [1, n],
      'float32',
    );
    const rt = await createRuntime({ backend: 'js', maxBytes: 4 * 2 ** 20 });
    // 10^6 entries of 8 bytes each pass 4 MiB.
    expect(() => rt.sparse.matrixSparseMatMul(col, row)).toThrow(ResourceExhaustedError);
    expect(() => rt.sparse.matrixSparseMatMul(col, row)).toThrow(/at most 1000000 entries/);
    // The inner product of the same vectors is one entry.
    expect(rt.sparse.matrixSparseMatMul(row, col).toDense().toArray()).toEqual([[1000]]);
    // The same operands transposed make the inner product too; the bound remembered for them is not the other's.
    expect(rt.sparse.matrixSparseMatMul(col, row, { transposeA: true, adjointB: true }).nnz).toBe(1);
    expect(() => rt.sparse.matrixSparseMatMul(col, row)).toThrow(ResourceExhaustedError);
  });
});
