import { delegation, type CsrData } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { allNormal, REASONS } from '../delegation.js';
import { csrDims, csrIsValid, globalRows } from '../csr/global-rows.js';
import { pointersFromCounts } from '../csr/pointers.js';
import { planSpgemm, recordSpgemm, spgemmBytes } from '../csr/spgemm.js';
import { refusal } from '../matmul/screen.js';
import { wordsOf } from '../structural/sort-entries.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/** int32 sums the JS kernel adds exactly (in float64) and so wraps as WGSL's i32 does: all below 2^53. */
const EXACT = 2 ** 53;

/**
 * sparse_matrix_sparse_mat_mul (float32 and int32; float64 runs on the JS kernels) on the GPU: op(a) · op(b) of two
 * CSR matrices or batches by expand, sort, compress (csr/spgemm.ts), every output position a product reaches kept,
 * columns sorted in each row, each value its products summed in the JS kernel's order. A transposed operand is
 * transposed on the host first (a counting sort, linear, as the JS kernel's); the host also places each of a's
 * entries' products (one pass over a's entries), which sizes every buffer before the one submission. float32
 * inputs are screened as the matmul's (inf, nan, subnormal, products that could be subnormal); a result holding
 * inf or nan reruns on the JS kernels. int32 runs where every sum stays below 2^53 (the JS kernel sums in float64,
 * then wraps).
 */
export const sparseMatrixSparseMatMul: KernelFactory<'sparse_matrix_sparse_mat_mul'> = (ctx, js) => async (args) => {
  const { a, b } = args;
  const ta = !!(args.transpose_a || args.adjoint_a);
  const tb = !!(args.transpose_b || args.adjoint_b);
  const dtype = a.dtype;
  if (dtype !== 'float32' && dtype !== 'int32') return delegation(js(args), REASONS.notComputed(dtype));
  if (b.dtype !== dtype || !csrIsValid(a) || !csrIsValid(b) || a.shape.length !== b.shape.length)
    return delegation(js(args), REASONS.unchecked);
  const [batch, aRows, aCols] = csrDims(a);
  const [bBatch, bRows, bCols] = csrDims(b);
  if (bBatch !== batch || (ta ? aRows : aCols) !== (tb ? bCols : bRows)) return delegation(js(args), REASONS.unchecked);
  // The host's arrays of op(a) and op(b) rows and a's entries, and their GPU copies, before any is allocated.
  const bytes = [(batch * aRows + 1) * 4, (batch * aCols + 1) * 4, (batch * bRows + 1) * 4, (batch * bCols + 1) * 4];
  bytes.push(a.colIndices.length * 12, b.colIndices.length * 4);
  const why = refusal(ctx, dtype, [a.values, b.values], [batch, aRows, aCols, bRows, bCols], bytes);
  if (why) return delegation(js(args), why);

  const opA = globalRows(a, wordsOf(a.values as Float32Array | Int32Array), ta);
  const opB = globalRows(b, wordsOf(b.values as Float32Array | Int32Array), tb);
  const { rows: m } = opA;
  const n = opB.cols;
  const limit = Math.min(Math.floor(ctx.maxBindingBytes / 4), 2 ** 32 - 1);
  const plan = planSpgemm(opA, opB, batch, limit);
  if (!plan || spgemmBytes(plan, opA, opB, batch).some((x) => !ctx.fits(x)))
    throw new BindingLimitError(ctx.maxBindingBytes);
  if (dtype === 'int32' && maxAbs(a.values as Int32Array) * maxAbs(b.values as Int32Array) * plan.products >= EXACT)
    return delegation(
      js(args),
      REASONS.int32NotWgsl('a sum of products past 2^53, which the JS kernel rounds in float64,'),
    );

  const Store = dtype === 'float32' ? Float32Array : Int32Array;
  const shape = a.shape.length === 3 ? [batch, m, n] : [m, n];
  // No products: every row empty, without the GPU.
  if (plan.products === 0) {
    const none = pointersFromCounts(new Uint32Array(batch * m), batch, m);
    return { output: csr(none.batchPointers, none.rowPointers, new Int32Array(0), new Store(0)) };
  }

  const owned: GPUBuffer[] = [];
  let colBytes: ArrayBuffer, valBytes: ArrayBuffer, countBytes: ArrayBuffer;
  try {
    const out = recordSpgemm(ctx, dtype, plan, opA, opB, batch, owned);
    [colBytes, valBytes, countBytes] = await ctx.read(
      [out.col, plan.bound * 4],
      [out.val, plan.bound * 4],
      [out.rowCount, batch * m * 4],
    );
  } finally {
    ctx.release(...owned);
  }
  const { batchPointers, rowPointers } = pointersFromCounts(new Uint32Array(countBytes), batch, m);
  const nnz = batchPointers[batch];
  const values = new Store(valBytes).slice(0, nnz);
  if (dtype === 'float32' && !allNormal(values as Float32Array)) return delegation(js(args), REASONS.nonFiniteResult);
  return { output: csr(batchPointers, rowPointers, new Int32Array(colBytes).slice(0, nnz), values) };

  function csr(
    batchPointers: Int32Array,
    rowPointers: Int32Array,
    colIndices: Int32Array,
    values: Float32Array | Int32Array,
  ): CsrData {
    return { kind: 'csr', batchPointers, rowPointers, colIndices, values, shape, dtype };
  }
};

function maxAbs(values: Int32Array): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) max = Math.max(max, Math.abs(values[i]));
  return max;
}
