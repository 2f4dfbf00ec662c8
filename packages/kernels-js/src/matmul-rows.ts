import type { DType, Values } from './generated/kernel-types.js';
import { allocValues } from './values.js';

/**
 * The transpose of a row-major [rows × cols] matrix: a new store of the same dtype, [cols × rows]. Blocked,
 * so both sides are walked in cache-sized tiles.
 */
export function transposeMatrix(data: Values, rows: number, cols: number, dtype: DType): Values {
  const out = allocValues(dtype, rows * cols) as unknown as unknown[];
  const src = data as unknown as unknown[];
  const B = 32;
  for (let i0 = 0; i0 < rows; i0 += B) {
    const i1 = Math.min(i0 + B, rows);
    for (let j0 = 0; j0 < cols; j0 += B) {
      const j1 = Math.min(j0 + B, cols);
      for (let i = i0; i < i1; i++) for (let j = j0, p = i * cols + j0; j < j1; j++, p++) out[j * rows + i] = src[p];
    }
  }
  return out as unknown as Values;
}

/**
 * The sparse × dense row update at the heart of a sparse matmul: for every stored entry `e` of a rank-2 index
 * matrix, with row r = indices[2e + rowDim] and column c = indices[2e + 1 - rowDim],
 * `out[r, :] += values[e] * dense[c, :]`, where `dense` and `out` are row-major with `n` columns. Entries are
 * taken in their order; repeats add up. The inner loop runs over contiguous typed arrays, unrolled by four and
 * specialized per dtype: float32 rounds the product and the sum to float32 (as float32 arithmetic does), int32
 * and int64 wrap. Every offset fits an int32 when both stores do (a dense tensor holds at most 2^31 - 1
 * elements), which lets the engine keep them as integers; larger stores take the same loop with float offsets.
 */
export function accumulateRows(out: Values, indices: Float64Array, values: Values, rowDim: 0 | 1, dense: Values, n: number, dtype: DType): void {
  const int = out.length <= INT32_MAX && dense.length <= INT32_MAX;
  switch (dtype) {
    case 'float64':
      return int ? rowsFloat64(out as Float64Array, indices, values as Float64Array, rowDim, dense as Float64Array, n) : rowsGeneric(out, indices, values, rowDim, dense, n, dtype);
    case 'float32':
      return int ? rowsFloat32(out as Float32Array, indices, values as Float32Array, rowDim, dense as Float32Array, n) : rowsGeneric(out, indices, values, rowDim, dense, n, dtype);
    case 'int32':
      return int ? rowsInt32(out as Int32Array, indices, values as Int32Array, rowDim, dense as Int32Array, n) : rowsGeneric(out, indices, values, rowDim, dense, n, dtype);
    case 'int64':
      return rowsGeneric(out, indices, values, rowDim, dense, n, dtype);
    default:
      throw new Error(`accumulateRows: ${dtype} is not a numeric dtype`);
  }
}

const INT32_MAX = 0x7fffffff;

function rowsFloat64(o: Float64Array, indices: Float64Array, v: Float64Array, rd: number, d: Float64Array, n: number): void {
  const nnz = v.length;
  const cd = 1 - rd;
  const n4 = n & ~3;
  for (let e = 0; e < nnz; e++) {
    const x = v[e];
    const ro = (indices[2 * e + rd] * n) | 0;
    const co = (indices[2 * e + cd] * n) | 0;
    let j = 0;
    for (; j < n4; j += 4) {
      const p = ro + j;
      const q = co + j;
      o[p] += x * d[q];
      o[p + 1] += x * d[q + 1];
      o[p + 2] += x * d[q + 2];
      o[p + 3] += x * d[q + 3];
    }
    for (; j < n; j++) o[ro + j] += x * d[co + j];
  }
}

function rowsFloat32(o: Float32Array, indices: Float64Array, v: Float32Array, rd: number, d: Float32Array, n: number): void {
  const nnz = v.length;
  const cd = 1 - rd;
  const n4 = n & ~3;
  const fround = Math.fround;
  // The product rounds to float32 before the sum does (storing into the Float32Array rounds the sum).
  for (let e = 0; e < nnz; e++) {
    const x = v[e];
    const ro = (indices[2 * e + rd] * n) | 0;
    const co = (indices[2 * e + cd] * n) | 0;
    let j = 0;
    for (; j < n4; j += 4) {
      const p = ro + j;
      const q = co + j;
      o[p] += fround(x * d[q]);
      o[p + 1] += fround(x * d[q + 1]);
      o[p + 2] += fround(x * d[q + 2]);
      o[p + 3] += fround(x * d[q + 3]);
    }
    for (; j < n; j++) o[ro + j] += fround(x * d[co + j]);
  }
}

function rowsInt32(o: Int32Array, indices: Float64Array, v: Int32Array, rd: number, d: Int32Array, n: number): void {
  const nnz = v.length;
  const cd = 1 - rd;
  const n4 = n & ~3;
  const imul = Math.imul;
  // imul wraps the product; the sum of two int32s is exact in a double and wraps when stored.
  for (let e = 0; e < nnz; e++) {
    const x = v[e];
    const ro = (indices[2 * e + rd] * n) | 0;
    const co = (indices[2 * e + cd] * n) | 0;
    let j = 0;
    for (; j < n4; j += 4) {
      const p = ro + j;
      const q = co + j;
      o[p] += imul(x, d[q]);
      o[p + 1] += imul(x, d[q + 1]);
      o[p + 2] += imul(x, d[q + 2]);
      o[p + 3] += imul(x, d[q + 3]);
    }
    for (; j < n; j++) o[ro + j] += imul(x, d[co + j]);
  }
}

/** Any dtype and any store size: int64 (BigInt, exact, wrapped by the BigInt64Array store), or offsets past 2^31. */
export function rowsGeneric(out: Values, indices: Float64Array, values: Values, rd: number, dense: Values, n: number, dtype: DType): void {
  const nnz = values.length;
  const cd = 1 - rd;
  if (dtype === 'int64') {
    const o = out as BigInt64Array;
    const d = dense as BigInt64Array;
    const v = values as BigInt64Array;
    for (let e = 0; e < nnz; e++) {
      const x = v[e];
      const ro = indices[2 * e + rd] * n;
      const co = indices[2 * e + cd] * n;
      for (let j = 0; j < n; j++) o[ro + j] += x * d[co + j];
    }
    return;
  }
  const o = out as Float64Array;
  const d = dense as Float64Array;
  const v = values as Float64Array;
  const f32 = dtype === 'float32';
  const i32 = dtype === 'int32';
  for (let e = 0; e < nnz; e++) {
    const x = v[e];
    const ro = indices[2 * e + rd] * n;
    const co = indices[2 * e + cd] * n;
    for (let j = 0; j < n; j++) o[ro + j] += f32 ? Math.fround(x * d[co + j]) : i32 ? Math.imul(x, d[co + j]) : x * d[co + j];
  }
}
