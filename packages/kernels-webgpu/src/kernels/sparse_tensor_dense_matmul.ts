import { delegation, type DenseData, matmulPlan } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { allNormal, REASONS } from '../delegation.js';
import { csrOf, recordSpmm, strides } from '../matmul/spmm.js';
import { refusal, viewOf, zeros } from '../matmul/screen.js';

/**
 * sparse_tensor_dense_matmul (float32 and int32) on the GPU, as one product Q = S·D (matmulPlan, as the JS kernel
 * reads it): the host groups the sparse operand's entries by row of S with a counting sort (linear, stable, any
 * input order; adjoint_a is the sort by the other coordinate), and one invocation per element of Q sums its row's
 * entries times D's column, reading the dense operand through strides (so adjoint_b costs no transpose). A dense ×
 * sparse product writes Q transposed, which is the result. One pass, one read.
 */
export const sparseTensorDenseMatmul: KernelFactory<'sparse_tensor_dense_matmul'> = (ctx, js) => async (args) => {
  const { sparseFirst, sp, dn, swapSparse, transposeDense, m, n } = matmulPlan(args);
  const dtype = sp.dtype;
  const nnz = sp.values.length;
  const [dRows, dCols] = dn.shape;
  const shape = sparseFirst ? [m, n] : [n, m];
  const why = refusal(
    ctx,
    dtype,
    [sp.values, dn.data],
    [m, n, dRows, dCols],
    [m * n * 4, (m + 1) * 4, nnz * 4, dRows * dCols * 4],
  );
  if (why) return delegation(js(args), why);
  const gpuDType = dtype as 'float32' | 'int32';
  if (m * n === 0) return { output: { kind: 'dense', data: zeros(gpuDType, 0), shape, dtype } satisfies DenseData };

  const d = ctx.upload(dn.data as Float32Array | Int32Array);
  const [sk, sj] = strides(dCols, transposeDense);
  const buffers = recordSpmm(ctx, {
    csr: csrOf(sp, swapSparse ? 1 : 0, m),
    d,
    sk,
    sj,
    rows: m,
    n,
    transposed: !sparseFirst,
    dtype: gpuDType,
  });
  let data: Float32Array | Int32Array;
  try {
    const [out] = await ctx.read([buffers[0], m * n * 4]);
    data = viewOf(gpuDType, out);
  } finally {
    ctx.release(d, ...buffers);
  }
  if (dtype === 'float32' && !allNormal(data as Float32Array)) return delegation(js(args), REASONS.nonFiniteResult);
  return { output: { kind: 'dense', data, shape, dtype } satisfies DenseData };
};
