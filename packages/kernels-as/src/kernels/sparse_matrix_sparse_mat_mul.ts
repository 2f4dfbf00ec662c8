import { copyOut, type CsrData } from '@sparse/kernel-abi';
import { bytesPerElement } from '../heap.js';
import { delegate } from '../delegate.js';
import { REASONS } from '../delegation.js';
import type { KernelFactory } from '../kernel.js';
import { csrOperand } from '../csr-operand.js';

/**
 * sparse_matrix_sparse_mat_mul in wasm: Gustavson's algorithm in two passes (csr-matrix.ts), a transposed operand
 * transposed in wasm first. The first pass counts each row's columns, so the result is allocated once at its exact
 * size (the runtime has checked a bound on it against the byte budget before this runs); the second forms the rows
 * in a dense accumulator and writes each row's columns sorted.
 */
export const sparseMatrixSparseMatMul: KernelFactory<'sparse_matrix_sparse_mat_mul'> = (ctx, js) => (args) => {
  const dtype = args.a.dtype as 'float32' | 'float64';
  const size = bytesPerElement(dtype);
  const { heap } = ctx;
  ctx.begin();
  const a = csrOperand(ctx, args.a, args.transpose_a || args.adjoint_a);
  const b = csrOperand(ctx, args.b, args.transpose_b || args.adjoint_b);
  const { batch, rows: m, cols: k } = a;
  const n = b.cols;
  const mark = heap.alloc(n * 4);
  const outRp = heap.alloc(batch * (m + 1) * 4);
  const outBp = heap.alloc((batch + 1) * 4);
  const nnz = ctx.call('spgemm_count', [a.rp, a.ci, a.bp, b.rp, b.ci, b.bp, batch, m, k, n, mark, outRp, outBp]);
  if (nnz < 0) return delegate(js, args, REASONS.tooBig);
  const outCi = heap.alloc(nnz * 4);
  const outV = heap.alloc(nnz * size);
  const acc = heap.alloc(n * size);
  // The accumulator's two-level bitmap: a bit per column, then a bit per u64 word of those.
  const words = Math.ceil(n / 64);
  const bits = heap.zeros('i32', (words + Math.ceil(words / 64)) * 2);
  ctx.call(`spgemm_${dtype}`, [
    a.rp,
    a.ci,
    a.vals,
    a.bp,
    b.rp,
    b.ci,
    b.vals,
    b.bp,
    batch,
    m,
    k,
    n,
    outRp,
    outBp,
    outCi,
    outV,
    acc,
    bits,
  ]);
  const output: CsrData = {
    kind: 'csr',
    batchPointers: heap.i32(outBp, batch + 1).slice(),
    rowPointers: copyOut(heap.i32(outRp, batch * (m + 1))),
    colIndices: copyOut(heap.i32(outCi, nnz)),
    values: heap.readValues(dtype, outV, nnz),
    shape: args.a.shape.length === 3 ? [batch, m, n] : [m, n],
    dtype,
  };
  return { output };
};
