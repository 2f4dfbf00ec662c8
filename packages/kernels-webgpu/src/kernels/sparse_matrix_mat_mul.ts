import { delegation, type DenseData } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { allNormal, REASONS } from '../delegation.js';
import { csrRows, recordBatchedSpmm } from '../csr/spmm.js';
import { refusal } from '../matmul/screen.js';

/**
 * sparse_matrix_mat_mul (float32; float64 runs on the JS kernels) on the GPU: op(a) · op(b) for a CSR matrix or
 * batch `a` and a dense `b`, one invocation per output element. The CSR row pointers are the rows of a (offset per
 * matrix of the batch), or, for transpose_a/adjoint_a, the rows of a's transpose by a counting sort on the host
 * (linear); op(b) is read through strides and transpose_output is where each thread writes, so nothing is
 * transposed. The runtime has checked ranks, batch sizes, inner dims and the flags. One pass, one read.
 */
export const sparseMatrixMatMul: KernelFactory<'sparse_matrix_mat_mul'> = (ctx, js) => async (args) => {
  const { a, b } = args;
  const ta = !!(args.transpose_a || args.adjoint_a);
  const tb = !!(args.transpose_b || args.adjoint_b);
  const rank3 = a.shape.length === 3;
  const [batch, aRows, aCols] = rank3 ? a.shape : [1, ...a.shape];
  const [b0, b1] = rank3 ? b.shape.slice(1) : b.shape;
  const m = ta ? aCols : aRows;
  const n = tb ? b0 : b1;
  const dtype = a.dtype;
  const nnz = a.colIndices.length;
  const total = batch * m * n;
  const shape2 = args.transpose_output ? [n, m] : [m, n];
  const shape = rank3 ? [batch, ...shape2] : shape2;
  const why = refusal(
    ctx,
    dtype,
    [a.values, b.data],
    [batch, aRows, aCols, b0, b1, total],
    [total * 4, (batch * m + 1) * 4, nnz * 4, b.data.length * 4],
  );
  if (why) return delegation(js(args), why);
  // Nothing to sum: zeros (or no elements) without the GPU.
  if (total === 0 || nnz === 0) return { output: { kind: 'dense', data: new Float32Array(total), shape, dtype } };

  const d = ctx.upload(b.data as Float32Array);
  const buffers = recordBatchedSpmm(ctx, {
    csr: csrRows(a, batch, aRows, aCols, ta),
    d,
    batch,
    m,
    n,
    sk: tb ? 1 : b1,
    sj: tb ? b1 : 1,
    bs: b0 * b1,
    transposed: !!args.transpose_output,
  });
  let data: Float32Array;
  try {
    const [out] = await ctx.read([buffers[0], total * 4]);
    data = new Float32Array(out);
  } finally {
    ctx.release(d, ...buffers);
  }
  if (!allNormal(data)) return delegation(js(args), REASONS.nonFiniteResult);
  return { output: { kind: 'dense', data, shape, dtype } satisfies DenseData };
};
