import { describe, expect, it } from 'vitest';
import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { dense, sparse } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { createWasmBackend } from '../dist/index.js';
import { runJs, runWasm } from './against-js.js';

// The wasm matmul sums each output row in blocks of seven v128 (28 float32 / int32, 14 float64 / int64 columns),
// then a block of four v128, then one v128, then column by column, from runs built in wasm (one pass for row-ordered
// entries, a counting sort otherwise). The property tests use small matrices, which never reach a whole block:
// these widths straddle every block edge in every entry order and adjoint, against the JS kernel. The summation order is the JS kernel's, so results agree
// exactly, not just within tolerance.

const DTYPES = ['float32', 'float64', 'int32', 'int64'] as const;
type NumericDType = (typeof DTYPES)[number];

function value(dtype: NumericDType, rnd: () => number): number | bigint {
  const x = rnd() * 2 - 1;
  if (dtype === 'int32') return Math.round(x * 1000);
  if (dtype === 'int64') return BigInt(Math.round(x * 1000));
  return x;
}

/** A random [rows × cols] sparse matrix in row-major order, shuffled (and with repeated entries) unless `ordered`. */
function randomSparse(
  rows: number,
  cols: number,
  density: number,
  dtype: NumericDType,
  ordered: boolean,
  seed: number,
): SparseData {
  const rnd = rng(seed).next;
  const entries: [number, number][] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) if (rnd() < density) entries.push([r, c]);
  if (!ordered) {
    for (let i = 0; i < entries.length / 4; i++) entries.push(entries[Math.floor(rnd() * entries.length)]);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [entries[i], entries[j]] = [entries[j], entries[i]];
    }
  }
  return sparse(
    entries,
    entries.map(() => value(dtype, rnd)),
    [rows, cols],
    dtype,
  );
}

function randomDense(rows: number, cols: number, dtype: NumericDType, seed: number): DenseData {
  const rnd = rng(seed).next;
  return dense(
    Array.from({ length: rows * cols }, () => value(dtype, rnd)),
    [rows, cols],
    dtype,
  );
}

describe('wasm sparse_tensor_dense_matmul on whole and partial SIMD blocks', async () => {
  const wasm = await createWasmBackend();
  const data = (t: unknown) => Array.from((t as DenseData).data as ArrayLike<number | bigint>);
  type Matmul = { sp_a: SparseData | DenseData; b: SparseData | DenseData; adjoint_a?: boolean; adjoint_b?: boolean };
  /** The product on wasm (which must not delegate it) and on the JS kernel. */
  const matmul = (args: Matmul) => {
    const full = { adjoint_a: false, adjoint_b: false, ...args };
    const got = runWasm(wasm, 'sparse_tensor_dense_matmul', full);
    expect(got.delegated).toBeUndefined();
    return { got: data(got.outputs.output), want: data(runJs('sparse_tensor_dense_matmul', full).output) };
  };

  for (const dtype of DTYPES) {
    it(`${dtype}: n across the block width, any entry order, every adjoint, either side sparse`, () => {
      let seed = 1;
      for (const n of [1, 3, 4, 5, 7, 8, 9, 13, 14, 15, 16, 17, 21, 22, 27, 28, 29, 31, 32, 33, 44, 45, 64, 70]) {
        for (const ordered of [true, false]) {
          for (const [adjA, adjB] of [
            [false, false],
            [true, false],
            [false, true],
            [true, true],
          ]) {
            const [m, k] = [23, 19];
            const sp = randomSparse(adjA ? k : m, adjA ? m : k, 0.2, dtype, ordered, seed++);
            const dn = randomDense(adjB ? n : k, adjB ? k : n, dtype, seed++);
            const args = { sp_a: sp, b: dn, adjoint_a: adjA, adjoint_b: adjB };
            const { got, want } = matmul(args);
            expect(got, `n=${n} ordered=${ordered} adj=${adjA},${adjB}`).toEqual(want);
            // Dense × sparse: the same kernel on the transposed problem.
            const left = randomDense(n, m, dtype, seed++);
            const product = matmul({ sp_a: left, b: sp, adjoint_a: false, adjoint_b: adjA });
            expect(product.got).toEqual(product.want);
          }
        }
      }
    });
  }

  it('slab by slab of B when B outgrows the cache: canonical rows, rows with columns out of order, any order', () => {
    // B of 3000 × 136 float32 is 1.6 MB (two slabs; float64: four), 60 entries a row: the product goes slab by
    // slab (a row out of column order only loses the cache benefit), and 136 columns leave a remainder past the
    // SIMD blocks.
    const [m, k, n] = [40, 3000, 136];
    for (const dtype of ['float32', 'float64', 'int32'] as const) {
      const b = randomDense(k, n, dtype, 5);
      const canonical = randomSparse(m, k, 0.02, dtype, true, 6);
      const rnd = rng(7).next;
      const rows = Array.from({ length: canonical.values.length }, (_, i) => [
        canonical.indices[2 * i],
        canonical.indices[2 * i + 1],
      ]);
      // Row order kept, columns shuffled within each row.
      const byRow = new Map<number, number[][]>();
      rows.forEach((r) => byRow.set(r[0], [...(byRow.get(r[0]) ?? []), r]));
      const within = [...byRow.values()].flatMap((rs) => rs.sort(() => rnd() - 0.5));
      const shuffledCols = sparse(
        within,
        within.map(() => value(dtype, rnd)),
        [m, k],
        dtype,
      );
      for (const sp of [canonical, shuffledCols, randomSparse(m, k, 0.02, dtype, false, 8)]) {
        const { got, want } = matmul({ sp_a: sp, b });
        expect(got, dtype).toEqual(want);
      }
    }
  });

  it('slab by slab with empty rows first, between and last, rows in one slab only, and entries on the cut', () => {
    // B of 3000 × 136 float32 is two slabs of 1500 rows (float64: four of 750); a heavy row keeps enough entries
    // per row for the slabs. The same entries read as Aᵀ (adjoint_a, listed by the product's row) take the
    // swapped one-pass path.
    const [m, k, n] = [12, 3000, 136];
    const rnd = rng(11).next;
    const heavy = [...new Set(Array.from({ length: 300 }, () => Math.floor(rnd() * k)))].sort((a, b) => a - b);
    const rowsCols: [number, number[]][] = [
      [1, [0, 749, 750, 1499, 1500, 2249, 2250, 2999]],
      [2, [1600, 2000, 2500]],
      [3, [3, 700]],
      [7, heavy],
      [8, [1500]],
      [9, [2999]],
      [10, [0]],
    ];
    const entries = rowsCols.flatMap(([r, cs]) => cs.map((c) => [r, c]));
    for (const dtype of ['float32', 'float64'] as const) {
      const vals = entries.map(() => value(dtype, rnd));
      const b = randomDense(k, n, dtype, 12);
      const a = sparse(entries, vals, [m, k], dtype);
      const aT = sparse(
        entries.map(([r, c]) => [c, r]),
        vals,
        [k, m],
        dtype,
      );
      for (const args of [
        { sp_a: a, b },
        { sp_a: aT, b, adjoint_a: true },
      ]) {
        const { got, want } = matmul(args);
        expect(got, `${dtype} adjoint_a=${'adjoint_a' in args}`).toEqual(want);
      }
    }
  });

  it('empty rows come out zero, with no stale values from an earlier, larger call', () => {
    const full = randomSparse(40, 40, 0.9, 'float32', true, 99);
    const b = randomDense(40, 64, 'float32', 98);
    matmul({ sp_a: full, b });
    const sparseRows = sparse(
      [
        [3, 5],
        [3, 7],
        [30, 1],
      ],
      [2, -1, 0.5],
      [40, 40],
      'float32',
    );
    const { got, want } = matmul({ sp_a: sparseRows, b });
    expect(got).toEqual(want);
  });
});
