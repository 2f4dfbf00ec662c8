import { beforeAll, describe, expect, it } from 'vitest';
import type { CsrData, DenseData, SparseData } from '@sparse/kernel-abi';
import { rng, type Rng } from '@sparse/test-kit/seeded-random';
import { createWasmBackend, type WasmBackend } from '../dist/index.js';
import { againstJs, runJs } from './against-js.js';

// The wasm kernels of the CSR ops against the JS backend, to the bit: random matrices and batches of both float
// dtypes, empty rows and matrices, rows dense enough for the bitmap walk and hypersparse wide ones for the sort,
// cancelling sums, every transpose flag, and the conversions both ways.

type DType = 'float32' | 'float64';

/** A random CSR matrix (batch > 0: a batch of them) with each position stored with probability `density`. */
function randomCsr(r: Rng, batch: number, rows: number, cols: number, density: number, dtype: DType): CsrData {
  const rowPointers = new Int32Array(batch * (rows + 1));
  const batchPointers = new Int32Array(batch + 1);
  const colIndices: number[] = [];
  const values: number[] = [];
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < rows; i++) {
      // A few columns per row drawn, deduplicated and sorted (a dense scan would cost rows × cols).
      const want = Math.min(cols, Math.round(cols * density * 2 * r.next()));
      const row = new Set<number>();
      while (row.size < want) row.add(r.int(cols));
      for (const c of [...row].sort((x, y) => x - y)) {
        colIndices.push(c);
        // Small integers: sums that cancel to 0 happen, and every backend must keep them.
        values.push(r.int(5) - 2);
      }
      rowPointers[b * (rows + 1) + i + 1] = colIndices.length - batchPointers[b];
    }
    batchPointers[b + 1] = colIndices.length;
  }
  const store = dtype === 'float32' ? Float32Array : Float64Array;
  return {
    kind: 'csr',
    batchPointers,
    rowPointers,
    colIndices: Int32Array.from(colIndices),
    values: store.from(values),
    shape: batch > 0 ? [batch, rows, cols] : [rows, cols],
    dtype,
  };
}

/** Where the shape says 2-D, batch pointers and row pointers of one matrix. */
function matrix(r: Rng, rows: number, cols: number, density: number, dtype: DType): CsrData {
  const m = randomCsr(r, 1, rows, cols, density, dtype);
  return { ...m, shape: [rows, cols] };
}

let wasm: WasmBackend;
beforeAll(async () => {
  wasm = await createWasmBackend();
});

function same(op: string, args: Record<string, unknown>): void {
  const { diff, delegated } = againstJs(wasm, op, args);
  expect(delegated).toBeUndefined();
  expect(diff).toBeUndefined();
}

describe('sparse_matrix_sparse_mat_mul on wasm equals the JS kernel', () => {
  const flags = { transpose_a: false, transpose_b: false, adjoint_a: false, adjoint_b: false };
  it.each([
    ['dense rows', 60, 50, 70, 0.3],
    ['sparse rows', 200, 300, 250, 0.01],
    ['hypersparse and wide (rows sorted, not walked)', 40, 30, 5000000, 0.000004],
    ['empty rows and an empty operand', 20, 10, 30, 0],
  ])('%s', (_, m, k, n, density) => {
    const r = rng(m * 7 + n);
    for (const dtype of ['float32', 'float64'] as const) {
      same('sparse_matrix_sparse_mat_mul', {
        a: matrix(r, m, k, Math.max(density, 0.2), dtype),
        b: matrix(r, k, n, density, dtype),
        ...flags,
      });
    }
  });

  it('every transpose and adjoint flag, on batches', () => {
    const r = rng(11);
    for (const [ta, tb, adj] of [
      [false, false, false],
      [true, false, false],
      [false, true, false],
      [true, true, true],
    ] as const) {
      const a = randomCsr(r, 3, ta ? 40 : 30, ta ? 30 : 40, 0.1, 'float32');
      const b = randomCsr(r, 3, tb ? 20 : 40, tb ? 40 : 20, 0.1, 'float32');
      same('sparse_matrix_sparse_mat_mul', {
        a,
        b,
        transpose_a: ta && !adj,
        adjoint_a: ta && adj,
        transpose_b: tb && !adj,
        adjoint_b: tb && adj,
      });
    }
  });
});

describe('sparse_matrix_sparse_mat_mul on threads equals the JS kernel', () => {
  // Rows cut between the threads by their products, each part in room of its own, then closed up: the default
  // threshold (the big product only) and every call cut (rows fewer than threads, empty parts, every flag).
  it.each([
    ['two threads', { threads: 2 }],
    ['four threads cutting every call', { threads: 4, parallelMinWork: 0 }],
  ])('%s', async (_, options) => {
    const threaded = await createWasmBackend(undefined, { ...options, warmUp: false });
    const r = rng(31);
    const cases: [number, number, number, number, DType][] = [
      [800, 600, 900, 0.03, 'float32'],
      [300, 400, 2000, 0.01, 'float64'],
      [3, 5, 7, 0.5, 'float32'],
      [1, 4, 4, 1, 'float64'],
      [20, 10, 30, 0, 'float32'],
    ];
    for (const [m, k, n, density, dtype] of cases)
      for (const [ta, tb] of [
        [false, false],
        [true, false],
        [false, true],
      ] as const) {
        const a = matrix(r, ta ? k : m, ta ? m : k, Math.max(density, 0.05), dtype);
        const b = matrix(r, tb ? n : k, tb ? k : n, density, dtype);
        const args = { a, b, transpose_a: ta, transpose_b: tb, adjoint_a: false, adjoint_b: false };
        const { diff, delegated } = againstJs(threaded, 'sparse_matrix_sparse_mat_mul', args);
        expect(delegated).toBeUndefined();
        expect(diff, `${m}×${k}·${k}×${n} ${dtype} ${ta} ${tb}`).toBeUndefined();
      }
  });
});

describe('sparse_matrix_mat_mul and sparse_matrix_transpose on wasm equal the JS kernels', () => {
  it('every flag, on matrices and batches', () => {
    const r = rng(23);
    for (const batch of [0, 3])
      for (const dtype of ['float32', 'float64'] as const)
        for (const [ta, tb, adj, to] of [
          [false, false, false, false],
          [true, false, false, true],
          [false, true, true, false],
          [true, true, false, true],
        ] as const) {
          const [m, k, n] = [37, 29, 45];
          const a = batch
            ? randomCsr(r, batch, ta ? k : m, ta ? m : k, 0.1, dtype)
            : matrix(r, ta ? k : m, ta ? m : k, 0.1, dtype);
          const bShape = tb ? [n, k] : [k, n];
          const store = dtype === 'float32' ? Float32Array : Float64Array;
          const size = (batch || 1) * k * n;
          const b = {
            kind: 'dense' as const,
            data: store.from({ length: size }, () => r.int(9) - 4),
            shape: batch ? [batch, ...bShape] : bShape,
            dtype,
          };
          same('sparse_matrix_mat_mul', {
            a,
            b,
            transpose_a: ta && !adj,
            adjoint_a: ta && adj,
            transpose_b: tb && !adj,
            adjoint_b: tb && adj,
            transpose_output: to,
            conjugate_output: false,
          });
          same('sparse_matrix_transpose', { input: a, conjugate: adj });
        }
  });
});

describe('the CSR conversions on wasm equal the JS kernels', () => {
  it('to and from SparseTensors and dense tensors, matrices and batches, large enough to be kept prepared', () => {
    const r = rng(31);
    for (const [batch, rows, cols, density] of [
      [0, 40, 50, 0.2],
      [3, 20, 10, 0.3],
      [0, 300, 400, 0.2],
      [2, 0, 5, 0.5],
      [0, 6, 0, 0.5],
    ] as const)
      for (const dtype of ['float32', 'float64'] as const) {
        const m = batch ? randomCsr(r, batch, rows, cols, density, dtype) : matrix(r, rows, cols, density, dtype);
        same('csr_sparse_matrix_to_sparse_tensor', { sparse_matrix: m });
        same('csr_sparse_matrix_to_dense', { sparse_input: m });
        const st = (runJs('csr_sparse_matrix_to_sparse_tensor', { sparse_matrix: m }) as { output: SparseData }).output;
        same('sparse_tensor_to_csr_sparse_matrix', { sp_input: st });
        const dense = (runJs('csr_sparse_matrix_to_dense', { sparse_input: m }) as { output: DenseData }).output;
        const indices: DenseData = {
          kind: 'dense',
          data: BigInt64Array.from(st.indices, BigInt),
          shape: [st.values.length, st.shape.length],
          dtype: 'int64',
        };
        same('dense_to_csr_sparse_matrix', { dense_input: dense, indices });
      }
  });
});
