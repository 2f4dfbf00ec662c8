import { copyOut, rememberedProductsBound, type CsrData } from '@sparse/kernel-abi';
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
  const transposeA = args.transpose_a || args.adjoint_a;
  const transposeB = args.transpose_b || args.adjoint_b;
  // Room for the result up front, from a bound on it (the one the runtime checked against its byte budget,
  // remembered for operands that never change), so the product takes one pass and is copied out at its size.
  const bound = rememberedProductsBound(args.a, args.b, transposeA, transposeB);
  if (bound > 0x7fffffff) return delegate(js, args, REASONS.tooBig);
  const { heap } = ctx;
  ctx.begin();
  const a = csrOperand(ctx, args.a, transposeA);
  const b = csrOperand(ctx, args.b, transposeB);
  const { batch, rows: m, cols: k } = a;
  const n = b.cols;
  const outRp = heap.alloc(batch * (m + 1) * 4);
  const outBp = heap.alloc((batch + 1) * 4);
  // The accumulator's two-level bitmap: a bit per column, then a bit per u64 word of those.
  const words = Math.ceil(n / 64);
  // A slot of slack past the output and the accumulator's words, for the sorted walk's branch-free writes.
  const outCi = heap.alloc((bound + 1) * 4);
  const outV = heap.alloc((bound + 1) * size);
  const acc = heap.alloc((words * 64 + 1) * size);
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
