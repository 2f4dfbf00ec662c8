import { describe, expect, it } from 'vitest';
import type { DenseData, DType, SparseData } from '@sparse/kernel-abi';
import { sparseTensorDenseMatmul } from '../src/kernels/sparse_tensor_dense_matmul.js';
import { rowsGeneric, transposeMatrix } from '../src/matmul-rows.js';
import { allocValues } from '@sparse/kernel-abi';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { list } from './helpers.js';

type Num = number | bigint;
const mm = (sp_a: SparseData | DenseData, b: SparseData | DenseData, adjoint_a = false, adjoint_b = false) =>
  sparseTensorDenseMatmul({ sp_a, b, adjoint_a, adjoint_b }).output;

/** A dense [rows × cols] matrix (row-major plain numbers) of SparseData, repeated indices added. */
function densify(st: SparseData): number[] {
  const [r, c] = st.shape;
  const out = new Array<number>(r * c).fill(0);
  for (let e = 0; e < st.values.length; e++) out[st.indices[2 * e] * c + st.indices[2 * e + 1]] += Number(st.values[e]);
  return out;
}

/** The naive triple loop on plain numbers (exact for the small integer values used here). */
function reference(
  a: number[],
  [ar, ac]: number[],
  b: number[],
  [br, bc]: number[],
  adjA: boolean,
  adjB: boolean,
): number[] {
  const A = (i: number, k: number) => (adjA ? a[k * ac + i] : a[i * ac + k]);
  const B = (k: number, j: number) => (adjB ? b[j * bc + k] : b[k * bc + j]);
  const [m, k] = adjA ? [ac, ar] : [ar, ac];
  const n = adjB ? br : bc;
  const out: number[] = [];
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let t = 0; t < k; t++) s += A(i, t) * B(t, j);
      out.push(s);
    }
  return out;
}

/** Random entries (repeats possible), in random order or, when `sorted`, row-major (long runs of one row). */
function randomSparse(r: () => number, shape: number[], nnz: number, dtype: DType, sorted = false): SparseData {
  const tuples = Array.from({ length: nnz }, () => shape.map((d) => Math.floor(r() * d)));
  if (sorted) tuples.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return sparse(
    tuples,
    tuples.map(() => Math.floor(r() * 19) - 9),
    shape,
    dtype,
  );
}
function randomDense(r: () => number, shape: number[], dtype: DType): DenseData {
  return dense(
    Array.from({ length: shape[0] * shape[1] }, () => Math.floor(r() * 19) - 9),
    shape,
    dtype,
  );
}

describe('sparse_tensor_dense_matmul kernel', () => {
  it('multiplies sparse × dense and dense × sparse under every adjoint combination and dtype, any order, repeats adding up', () => {
    const r = rng(5).next;
    for (const dtype of ['float32', 'float64', 'int32', 'int64'] as DType[]) {
      for (const adjA of [false, true])
        for (const adjB of [false, true])
          for (let trial = 0; trial < 12; trial++) {
            // n up to 20: the 8-column register blocks and the column tail; sorted entries make runs of one row.
            const [m, k, n] = [1 + Math.floor(r() * 6), 1 + Math.floor(r() * 6), 1 + Math.floor(r() * 20)];
            const aShape = adjA ? [k, m] : [m, k];
            const bShape = adjB ? [n, k] : [k, n];
            const sparseLeft = trial % 2 === 0;
            const sorted = trial % 4 < 2;
            const a = sparseLeft
              ? randomSparse(r, aShape, Math.floor(r() * 3 * m * k), dtype, sorted)
              : randomDense(r, aShape, dtype);
            const b = sparseLeft
              ? randomDense(r, bShape, dtype)
              : randomSparse(r, bShape, Math.floor(r() * 3 * k * n), dtype, sorted);
            const plain = (x: SparseData | DenseData) =>
              x.kind === 'sparse' ? densify(x) : (list(x.data) as Num[]).map(Number);
            const out = mm(a, b, adjA, adjB);
            expect(out.shape).toEqual([m, n]);
            expect(out.dtype).toBe(dtype);
            expect(out.data).toBeInstanceOf(allocValues(dtype, 0).constructor);
            expect((list(out.data) as Num[]).map(Number)).toEqual(
              reference(plain(a), aShape, plain(b), bShape, adjA, adjB),
            );
          }
    }
  });

  it('rounds every float32 product and sum to float32, in entry order, in long runs of one row too', () => {
    const out = mm(
      sparse(
        [
          [0, 0],
          [0, 1],
          [0, 2],
        ],
        [1, 1, 1],
        [1, 3],
        'float32',
      ),
      dense([16777216, 1, 1], [3, 1], 'float32'),
    );
    expect(list(out.data)).toEqual([16777216]); // a float64 sum would give 16777218
    // A run of four entries of one row over nine columns (a float64 accumulator per column, as the register blocks
    // of the other dtypes keep, would round to 16777220): every + 1 rounds away.
    const run = sparse(
      [
        [0, 0],
        [0, 1],
        [0, 2],
        [0, 3],
      ],
      [1, 1, 1, 1],
      [1, 4],
      'float32',
    );
    const wide = dense([...Array(9).fill(16777216), ...Array(27).fill(1)], [4, 9], 'float32');
    expect(list(mm(run, wide).data)).toEqual(Array(9).fill(16777216));
    // Row 0's entries interleaved with row 1's (runs of one entry, taken entry by entry) give the same.
    const split = sparse(
      [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
        [0, 2],
        [1, 2],
        [0, 3],
      ],
      [1, 1, 1, 1, 1, 1, 1],
      [2, 4],
      'float32',
    );
    expect(list(mm(split, wide).data)).toEqual(Array(18).fill(16777216));
    const p = mm(sparse([[0, 0]], [0.1], [1, 1], 'float32'), dense([0.1], [1, 1], 'float32'));
    expect(list(p.data)).toEqual([Math.fround(Math.fround(0.1) * Math.fround(0.1))]);
  });

  it('wraps int32 products and sums of a run in the register blocks', () => {
    // A run of 4 entries of row 0 times 65537 in 9 columns: the products and their sum pass 2^31 and wrap.
    const vals = [65536, 65536, 2 ** 31 - 1, -3];
    const out = mm(
      sparse(
        [
          [0, 0],
          [0, 1],
          [0, 2],
          [0, 3],
        ],
        vals,
        [1, 4],
        'int32',
      ),
      dense(Array(36).fill(65537), [4, 9], 'int32'),
    );
    const want = Number(
      BigInt.asIntN(
        32,
        vals.reduce((s, x) => s + BigInt(x) * 65537n, 0n),
      ),
    );
    expect(list(out.data)).toEqual(Array(9).fill(want));
  });

  it('wraps int32 and int64 products and sums', () => {
    const i32 = mm(
      sparse(
        [
          [0, 0],
          [0, 1],
        ],
        [65536, 3],
        [1, 2],
        'int32',
      ),
      dense([65537, 1], [2, 1], 'int32'),
    );
    expect(list(i32.data)).toEqual([65539]);
    const big = mm(
      dense([2 ** 30, 2 ** 30], [1, 2], 'int32'),
      sparse(
        [
          [0, 0],
          [1, 0],
        ],
        [2, 2],
        [2, 1],
        'int32',
      ),
    );
    expect(list(big.data)).toEqual([0]);
    const i64 = mm(sparse([[0, 0]], [2n ** 62n], [1, 1], 'int64'), dense([2n, 5n, 9007199254740993n], [1, 3], 'int64'));
    expect(list(i64.data)).toEqual([-(2n ** 63n), 2n ** 62n, BigInt.asIntN(64, 2n ** 62n * 9007199254740993n)]);
  });

  it('handles empty operands and zero-sized dims', () => {
    expect(list(mm(sparse([], [], [2, 3], 'float64'), dense([1, 2, 3, 4, 5, 6], [3, 2], 'float64')).data)).toEqual([
      0, 0, 0, 0,
    ]);
    const rows0 = mm(sparse([], [], [0, 3], 'float32'), dense([1, 2, 3], [3, 1], 'float32'));
    expect(rows0.shape).toEqual([0, 1]);
    expect(rows0.data.length).toBe(0);
    const k0 = mm(dense([], [2, 0], 'int32'), sparse([], [], [0, 3], 'int32'));
    expect(k0.shape).toEqual([2, 3]);
    expect(list(k0.data)).toEqual([0, 0, 0, 0, 0, 0]);
    const n0 = mm(dense([1, 2], [1, 2], 'int64'), sparse([], [], [2, 0], 'int64'));
    expect(n0.shape).toEqual([1, 0]);
  });

  it('propagates nan and inf (no entry is skipped)', () => {
    const out = mm(sparse([[0, 0]], [0], [1, 1], 'float64'), dense([Infinity, 1], [1, 2], 'float64'));
    const v = list(out.data) as number[];
    expect(Number.isNaN(v[0])).toBe(true);
    expect(v[1]).toBe(0);
  });

  it('leaves its inputs untouched', () => {
    const a = sparse(
      [
        [1, 0],
        [0, 1],
      ],
      [2, 3],
      [2, 2],
      'float64',
    );
    const b = dense([1, 2, 3, 4], [2, 2], 'float64');
    mm(a, b, true, true);
    mm(b, a, true, false);
    expect(list(a.values)).toEqual([2, 3]);
    expect(Array.from(a.indices)).toEqual([1, 0, 0, 1]);
    expect(list(b.data)).toEqual([1, 2, 3, 4]);
  });

  it('transposes with a blocked loop that covers ragged edges', () => {
    const data = Float64Array.from({ length: 70 * 45 }, (_, i) => i);
    const t = transposeMatrix(data, 70, 45, 'float64');
    for (let i = 0; i < 70; i++) for (let j = 0; j < 45; j++) expect(t[j * 70 + i]).toBe(data[i * 45 + j]);
  });

  it('has a generic path (offsets past 2^31) that agrees with the fast one', () => {
    const r = rng(9).next;
    for (const dtype of ['float32', 'float64', 'int32'] as DType[]) {
      const a = randomSparse(r, [5, 4], 12, dtype);
      const b = randomDense(r, [4, 6], dtype);
      const out = allocValues(dtype, 30);
      rowsGeneric(out, a.indices, a.values, 0, b.data, 6, dtype);
      expect(list(out)).toEqual(list(mm(a, b).data));
    }
    const f = allocValues('float32', 1);
    rowsGeneric(
      f,
      Float64Array.from([0, 0, 0, 1, 0, 2]),
      Float32Array.from([1, 1, 1]),
      0,
      Float32Array.from([16777216, 1, 1]),
      1,
      'float32',
    );
    expect(list(f)).toEqual([16777216]);
  });

  it('multiplies a million entries by 16 columns, both ways round', () => {
    const r = rng(13).next;
    const [m, k, n, nnz] = [20_000, 20_000, 16, 1_000_000];
    const indices = new Float64Array(2 * nnz);
    const values = new Float64Array(nnz);
    for (let e = 0; e < nnz; e++) {
      indices[2 * e] = Math.floor(r() * m);
      indices[2 * e + 1] = Math.floor(r() * k);
      values[e] = r();
    }
    const sp: SparseData = { kind: 'sparse', indices, values, shape: [m, k], dtype: 'float64' };
    const b: DenseData = {
      kind: 'dense',
      data: Float64Array.from({ length: k * n }, () => r()),
      shape: [k, n],
      dtype: 'float64',
    };
    const bt: DenseData = {
      kind: 'dense',
      data: transposeMatrix(b.data, k, n, 'float64'),
      shape: [n, k],
      dtype: 'float64',
    };
    const out = mm(sp, b);
    const viaDense = mm(bt, sp, false, true); // bᵀ · spᵀ = (sp · b)ᵀ
    const o = out.data as Float64Array;
    const v = viaDense.data as Float64Array;
    for (let i = 0; i < m; i += 997) for (let j = 0; j < n; j++) expect(v[j * m + i]).toBeCloseTo(o[i * n + j], 9);
  });
});
