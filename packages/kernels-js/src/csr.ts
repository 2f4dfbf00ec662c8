import type { CsrData, DType, Values } from '@sparse/kernel-abi';
import { allocValues, copyValue } from '@sparse/kernel-abi';

/** [batch, rows, cols] of a CSR matrix (batch 1) or a batch of them. */
export function csrDims(m: { shape: readonly number[] }): [number, number, number] {
  const s = m.shape;
  return s.length === 3 ? [s[0], s[1], s[2]] : [1, s[0], s[1]];
}

/** A CSR result from its parts; `shape` has the rank of the input it came from (2, or 3 with the batch first). */
export function csrData(
  batchPointers: Int32Array,
  rowPointers: Int32Array,
  colIndices: Int32Array,
  values: Values,
  shape: number[],
  dtype: DType,
): CsrData {
  return { kind: 'csr', batchPointers, rowPointers, colIndices, values, shape, dtype };
}

/**
 * The transpose of each matrix of a CSR matrix or batch, by a counting sort of the entries on their columns: rows
 * are walked in order, so each row of the result (a column of the input) comes out with sorted columns.
 * O(nnz + batch · (rows + cols)).
 */
export function transposeCsr(m: CsrData): CsrData {
  const [batch, rows, cols] = csrDims(m);
  const nnz = m.colIndices.length;
  const rowPointers = new Int32Array(batch * (cols + 1));
  const colIndices = new Int32Array(nnz);
  const values = allocValues(m.dtype, nnz, false);
  const next = new Int32Array(cols);
  for (let b = 0; b < batch; b++) {
    const base = m.batchPointers[b];
    const end = m.batchPointers[b + 1];
    const out = b * (cols + 1);
    for (let k = base; k < end; k++) rowPointers[out + m.colIndices[k] + 1]++;
    for (let c = 0; c < cols; c++) {
      rowPointers[out + c + 1] += rowPointers[out + c];
      next[c] = rowPointers[out + c];
    }
    const inRows = b * (rows + 1);
    for (let r = 0; r < rows; r++) {
      for (let k = base + m.rowPointers[inRows + r]; k < base + m.rowPointers[inRows + r + 1]; k++) {
        const at = base + next[m.colIndices[k]]++;
        colIndices[at] = r;
        copyValue(values, at, m.values, k);
      }
    }
  }
  const shape = m.shape.length === 3 ? [batch, cols, rows] : [cols, rows];
  return csrData(m.batchPointers.slice(), rowPointers, colIndices, values, shape, m.dtype);
}

/**
 * Matrix `bi` of a CSR matrix or batch as (row, column) pairs, in storage order: `indices` [2 · nnz], `base` the
 * place of its first entry in colIndices and values, `nnz` its entry count. O(rows + nnz).
 */
export function csrEntryPairs(m: CsrData, bi: number): { indices: Float64Array; base: number; nnz: number } {
  const rows = csrDims(m)[1];
  const base = m.batchPointers[bi];
  const nnz = m.batchPointers[bi + 1] - base;
  const indices = new Float64Array(nnz * 2);
  for (let r = 0; r < rows; r++) {
    const p = bi * (rows + 1) + r;
    for (let k = m.rowPointers[p]; k < m.rowPointers[p + 1]; k++) {
      indices[2 * k] = r;
      indices[2 * k + 1] = m.colIndices[base + k];
    }
  }
  return { indices, base, nnz };
}

/** The matmul flags of op(a) · op(b): op transposes where transpose_ or adjoint_ is set (real dtypes). */
interface MatMulFlags {
  transpose_a: boolean;
  adjoint_a: boolean;
  transpose_b: boolean;
  adjoint_b: boolean;
}

/**
 * The dims of op(a) · op(b) for a CSR `a` (a matrix or a batch) and a `b` of a's rank: whether each is transposed,
 * the batch, a's and b's own dims, and op(a) [m × k] · op(b) [k × n].
 */
export function matMulDims(args: MatMulFlags & { a: { shape: readonly number[] }; b: { shape: readonly number[] } }) {
  const ta = args.transpose_a || args.adjoint_a;
  const tb = args.transpose_b || args.adjoint_b;
  const [batch, aRows, aCols] = csrDims(args.a);
  const [, b0, b1] = csrDims(args.b);
  return { ta, tb, batch, b0, b1, m: ta ? aCols : aRows, k: ta ? aRows : aCols, n: tb ? b0 : b1 };
}
