import { copyOut, type CsrData } from '@sparse/kernel-abi';
import { bytesPerElement } from '../heap.js';
import { delegate } from '../delegate.js';
import { REASONS } from '../delegation.js';
import type { KernelFactory } from '../kernel.js';
import { csrOperand } from '../csr-operand.js';

/**
 * sparse_matrix_sparse_mat_mul in wasm: Gustavson's algorithm (csr-matrix.ts) in one pass into room sized by a bound
 * known up front, each row formed in a dense accumulator and written with its columns sorted; a transposed operand
 * is transposed in wasm first.
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
  // Room for the result up front, from a bound on it (one pass over a's entries; the runtime checked the same
  // bound against its byte budget), so the product takes one pass and the result is copied out at its size.
  const bound = ctx.call('spgemm_bound', [a.rp, a.ci, a.bp, b.rp, batch, m, k, n]);
  if (bound < 0) return delegate(js, args, REASONS.tooBig);
  const outRp = heap.alloc(batch * (m + 1) * 4);
  const outBp = heap.alloc((batch + 1) * 4);
  const outCi = heap.alloc(bound * 4);
  const outV = heap.alloc(bound * size);
  const acc = heap.alloc(n * size);
  // The accumulator's two-level bitmap: a bit per column, then a bit per u64 word of those.
  const words = Math.ceil(n / 64);
  const bits = heap.zeros('i32', (words + Math.ceil(words / 64)) * 2);
  const nnz = ctx.call(`spgemm_${dtype}`, [
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
