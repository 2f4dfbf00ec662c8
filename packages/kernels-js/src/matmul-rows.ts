import type { DType, Values } from '@sparse/kernel-abi';
import { allocValues } from '@sparse/kernel-abi';

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
 * taken in their order, any order; repeats add up.
 *
 * The arithmetic is TensorFlow's, step by step in entry order: float32 rounds every product and every sum to
 * float32, float64 adds in float64, int32 wraps every product and sum, int64 is exact BigInt arithmetic wrapped by
 * its store. For float64 and int32, a run of consecutive entries with the same output row (canonical order makes
 * each row one run) is register blocked: for every 8 output columns, 8 local accumulators take the whole run and
 * `out` is read and written once, not once per entry; the order of the additions, and so every bit of the result,
 * stays the same. float32 goes entry by entry: its exact rounding costs five float32↔float64 conversions per
 * multiply-add whether the sum is kept in a local (Math.fround) or in the Float32Array, and those conversions, not
 * the traffic on `out`, bound its speed (blocking measured no faster). Every offset fits an int32 when both stores
 * do (a dense tensor holds at most 2^31 - 1 elements), which lets the engine keep them as integers; larger stores
 * and int64 take a plain loop with float offsets.
 */
export function accumulateRows(
  out: Values,
  indices: Float64Array,
  values: Values,
  rowDim: 0 | 1,
  dense: Values,
  n: number,
  dtype: DType,
): void {
  const int = out.length <= INT32_MAX && dense.length <= INT32_MAX;
  const cols = () => columnOffsets(indices, values.length, 1 - rowDim, n);
  switch (dtype) {
    case 'float64':
      return int
        ? rowsFloat64(out as Float64Array, indices, values as Float64Array, rowDim, cols(), dense as Float64Array, n)
        : rowsGeneric(out, indices, values, rowDim, dense, n, dtype);
    case 'float32':
      return int
        ? rowsFloat32(out as Float32Array, indices, values as Float32Array, rowDim, dense as Float32Array, n)
        : rowsGeneric(out, indices, values, rowDim, dense, n, dtype);
    case 'int32':
      return int
        ? rowsInt32(out as Int32Array, indices, values as Int32Array, rowDim, cols(), dense as Int32Array, n)
        : rowsGeneric(out, indices, values, rowDim, dense, n, dtype);
    case 'int64':
      return rowsGeneric(out, indices, values, rowDim, dense, n, dtype);
    default:
      throw new Error(`accumulateRows: ${dtype} is not a numeric dtype`);
  }
}

const INT32_MAX = 0x7fffffff;

/**
 * Each entry's offset into the dense store, `column · n`, as int32: computed once here because the blocked loops
 * revisit every entry once per 8 columns. One Int32Array of nnz.
 */
function columnOffsets(indices: Float64Array, nnz: number, cd: number, n: number): Int32Array {
  const cols = new Int32Array(nnz);
  for (let e = 0; e < nnz; e++) cols[e] = (indices[2 * e + cd] * n) | 0;
  return cols;
}

/** The end of the run of entries starting at `e0` that share its output row. */
function runEnd(indices: Float64Array, e0: number, nnz: number, rd: number): number {
  const r = indices[2 * e0 + rd];
  let e1 = e0 + 1;
  while (e1 < nnz && indices[2 * e1 + rd] === r) e1++;
  return e1;
}

/**
 * Runs shorter than this go entry by entry: the blocks' per-entry overhead (16 passes over the run for 128 columns)
 * outweighs the saved output traffic for 2 or 3 entries (measured: 10-20% slower there, 1.5x faster for float64
 * at 41 entries a run).
 */
const MIN_BLOCKED_RUN = 4;

// Each dtype has its own copy of the loops (rows → a long run in register blocks, else entry by entry), so that
// each stays monomorphic: one function fed Float64Array and Int32Array would be compiled for both, and slower.

function rowsFloat64(
  o: Float64Array,
  indices: Float64Array,
  v: Float64Array,
  rd: number,
  cols: Int32Array,
  d: Float64Array,
  n: number,
): void {
  const nnz = v.length;
  for (let e0 = 0; e0 < nnz;) {
    const e1 = runEnd(indices, e0, nnz, rd);
    const ro = (indices[2 * e0 + rd] * n) | 0;
    if (e1 - e0 >= MIN_BLOCKED_RUN) runFloat64(o, ro, v, cols, e0, e1, d, n);
    else for (let e = e0; e < e1; e++) axpyFloat64(o, ro, v[e], d, cols[e], n);
    e0 = e1;
  }
}

/** out[ro…ro+n) += the entries e0…e1 of one output row, 8 columns at a time in locals. */
function runFloat64(
  o: Float64Array,
  ro: number,
  v: Float64Array,
  cols: Int32Array,
  e0: number,
  e1: number,
  d: Float64Array,
  n: number,
): void {
  const n8 = n & ~7;
  let j = 0;
  for (; j < n8; j += 8) {
    const p = ro + j;
    let a0 = o[p],
      a1 = o[p + 1],
      a2 = o[p + 2],
      a3 = o[p + 3],
      a4 = o[p + 4],
      a5 = o[p + 5],
      a6 = o[p + 6],
      a7 = o[p + 7];
    for (let e = e0; e < e1; e++) {
      const x = v[e];
      const q = cols[e] + j;
      a0 += x * d[q];
      a1 += x * d[q + 1];
      a2 += x * d[q + 2];
      a3 += x * d[q + 3];
      a4 += x * d[q + 4];
      a5 += x * d[q + 5];
      a6 += x * d[q + 6];
      a7 += x * d[q + 7];
    }
    o[p] = a0;
    o[p + 1] = a1;
    o[p + 2] = a2;
    o[p + 3] = a3;
    o[p + 4] = a4;
    o[p + 5] = a5;
    o[p + 6] = a6;
    o[p + 7] = a7;
  }
  for (; j < n; j++) {
    let a = o[ro + j];
    for (let e = e0; e < e1; e++) a += v[e] * d[cols[e] + j];
    o[ro + j] = a;
  }
}

/** out[ro…ro+n) += x · d[q…q+n): one entry straight into the output row, unrolled by 4. */
function axpyFloat64(o: Float64Array, ro: number, x: number, d: Float64Array, q: number, n: number): void {
  const n4 = n & ~3;
  let j = 0;
  for (; j < n4; j += 4) {
    const p = ro + j;
    const r = q + j;
    o[p] += x * d[r];
    o[p + 1] += x * d[r + 1];
    o[p + 2] += x * d[r + 2];
    o[p + 3] += x * d[r + 3];
  }
  for (; j < n; j++) o[ro + j] += x * d[q + j];
}

function rowsFloat32(
  o: Float32Array,
  indices: Float64Array,
  v: Float32Array,
  rd: number,
  d: Float32Array,
  n: number,
): void {
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

function rowsInt32(
  o: Int32Array,
  indices: Float64Array,
  v: Int32Array,
  rd: number,
  cols: Int32Array,
  d: Int32Array,
  n: number,
): void {
  const nnz = v.length;
  for (let e0 = 0; e0 < nnz;) {
    const e1 = runEnd(indices, e0, nnz, rd);
    const ro = (indices[2 * e0 + rd] * n) | 0;
    if (e1 - e0 >= MIN_BLOCKED_RUN) runInt32(o, ro, v, cols, e0, e1, d, n);
    else for (let e = e0; e < e1; e++) axpyInt32(o, ro, v[e], d, cols[e], n);
    e0 = e1;
  }
}

/** out[ro…ro+n) += the entries e0…e1 of one output row, 8 columns at a time in locals. */
function runInt32(
  o: Int32Array,
  ro: number,
  v: Int32Array,
  cols: Int32Array,
  e0: number,
  e1: number,
  d: Int32Array,
  n: number,
): void {
  const imul = Math.imul;
  const n8 = n & ~7;
  let j = 0;
  for (; j < n8; j += 8) {
    const p = ro + j;
    let a0 = o[p],
      a1 = o[p + 1],
      a2 = o[p + 2],
      a3 = o[p + 3],
      a4 = o[p + 4],
      a5 = o[p + 5],
      a6 = o[p + 6],
      a7 = o[p + 7];
    for (let e = e0; e < e1; e++) {
      const x = v[e];
      const q = cols[e] + j;
      a0 = (a0 + imul(x, d[q])) | 0;
      a1 = (a1 + imul(x, d[q + 1])) | 0;
      a2 = (a2 + imul(x, d[q + 2])) | 0;
      a3 = (a3 + imul(x, d[q + 3])) | 0;
      a4 = (a4 + imul(x, d[q + 4])) | 0;
      a5 = (a5 + imul(x, d[q + 5])) | 0;
      a6 = (a6 + imul(x, d[q + 6])) | 0;
      a7 = (a7 + imul(x, d[q + 7])) | 0;
    }
    o[p] = a0;
    o[p + 1] = a1;
    o[p + 2] = a2;
    o[p + 3] = a3;
    o[p + 4] = a4;
    o[p + 5] = a5;
    o[p + 6] = a6;
    o[p + 7] = a7;
  }
  for (; j < n; j++) {
    let a = o[ro + j];
    for (let e = e0; e < e1; e++) a = (a + imul(v[e], d[cols[e] + j])) | 0;
    o[ro + j] = a;
  }
}

/** out[ro…ro+n) += x · d[q…q+n): one entry straight into the output row, unrolled by 4. */
function axpyInt32(o: Int32Array, ro: number, x: number, d: Int32Array, q: number, n: number): void {
  const imul = Math.imul;
  const n4 = n & ~3;
  let j = 0;
  for (; j < n4; j += 4) {
    const p = ro + j;
    const r = q + j;
    o[p] += imul(x, d[r]);
    o[p + 1] += imul(x, d[r + 1]);
    o[p + 2] += imul(x, d[r + 2]);
    o[p + 3] += imul(x, d[r + 3]);
  }
  for (; j < n; j++) o[ro + j] += imul(x, d[q + j]);
}

/** Any dtype and any store size: int64 (BigInt, exact, wrapped by the BigInt64Array store), or offsets past 2^31. */
export function rowsGeneric(
  out: Values,
  indices: Float64Array,
  values: Values,
  rd: number,
  dense: Values,
  n: number,
  dtype: DType,
): void {
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
    for (let j = 0; j < n; j++)
      o[ro + j] += f32 ? Math.fround(x * d[co + j]) : i32 ? Math.imul(x, d[co + j]) : x * d[co + j];
  }
}
