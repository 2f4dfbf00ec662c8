import { allocValues, type CsrData, type SparseMatrixSparseMatMulKernel } from '@sparse/kernel-abi';
import { csrData, csrDims, transposeCsr } from '../csr.js';

type Store = Float32Array | Float64Array;

/**
 * op(a) · op(b) for two CSR matrices (or batches), by Gustavson's algorithm row by row, as TensorFlow's CPU kernel
 * (Eigen's conservative sparse product) computes it: every position some product of stored entries reaches is kept,
 * a sum that cancels to 0 included, with sorted columns. A transposed operand is transposed first (counting sort).
 *
 * Two passes: the first counts each row's distinct columns (a mark per column of the row last seen), so the result
 * is allocated once at its exact size; the second forms each row in a dense accumulator, in a's column order
 * (float32: every product and sum rounded to float32), and sorts the row's columns. O(products + nnz · log(row
 * length) + batch · (rows + cols)).
 */
export const sparseMatrixSparseMatMul: SparseMatrixSparseMatMulKernel = (args) => {
  const a = args.transpose_a || args.adjoint_a ? transposeCsr(args.a) : args.a;
  const b = args.transpose_b || args.adjoint_b ? transposeCsr(args.b) : args.b;
  const [batch, m] = csrDims(a);
  const [, , n] = csrDims(b);
  const dtype = a.dtype;
  const mark = new Int32Array(n).fill(-1);
  const rowPointers = new Int32Array(batch * (m + 1));
  const batchPointers = new Int32Array(batch + 1);
  let stamp = 0;
  for (let bi = 0; bi < batch; bi++) {
    let total = 0;
    for (let i = 0; i < m; i++, stamp++) {
      forEachProduct(a, b, bi, i, (j) => {
        if (mark[j] !== stamp) {
          mark[j] = stamp;
          total++;
        }
      });
      rowPointers[bi * (m + 1) + i + 1] = total;
    }
    batchPointers[bi + 1] = batchPointers[bi] + total;
  }
  const nnz = batchPointers[batch];
  const colIndices = new Int32Array(nnz);
  const values = allocValues(dtype, nnz, false) as Store;
  const acc = new Float64Array(n);
  const round = dtype === 'float32' ? Math.fround : (x: number) => x;
  for (let bi = 0; bi < batch; bi++) {
    for (let i = 0; i < m; i++, stamp++) {
      const start = batchPointers[bi] + rowPointers[bi * (m + 1) + i];
      let w = start;
      forEachProduct(a, b, bi, i, (j, p) => {
        if (mark[j] !== stamp) {
          mark[j] = stamp;
          colIndices[w++] = j;
          acc[j] = round(p);
        } else {
          acc[j] = round(acc[j] + round(p));
        }
      });
      colIndices.subarray(start, w).sort();
      for (let k = start; k < w; k++) values[k] = acc[colIndices[k]];
    }
  }
  const shape = a.shape.length === 3 ? [batch, m, n] : [m, n];
  return { output: csrData(batchPointers, rowPointers, colIndices, values, shape, dtype) };
};

/** Calls `f(j, a[i, k] · b[k, j])` for every product of row i of a (batch bi), in a's then b's column order. */
function forEachProduct(a: CsrData, b: CsrData, bi: number, i: number, f: (j: number, p: number) => void): void {
  const [, m] = csrDims(a);
  const [, k] = csrDims(b);
  const aBase = a.batchPointers[bi];
  const bBase = b.batchPointers[bi];
  const av = a.values as Store;
  const bv = b.values as Store;
  const p = bi * (m + 1) + i;
  for (let e = aBase + a.rowPointers[p]; e < aBase + a.rowPointers[p + 1]; e++) {
    const kk = a.colIndices[e];
    const x = av[e];
    const q = bi * (k + 1) + kk;
    for (let g = bBase + b.rowPointers[q]; g < bBase + b.rowPointers[q + 1]; g++) f(b.colIndices[g], x * bv[g]);
  }
}
