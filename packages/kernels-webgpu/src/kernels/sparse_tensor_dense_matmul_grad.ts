import { delegation, type DenseData, matmulPlan } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { allNormal, REASONS } from '../delegation.js';
import { csrOf, recordSpmm, sampledSource, strides } from '../matmul/spmm.js';
import { refusal, viewOf, zeros } from '../matmul/screen.js';

/**
 * The gradient of sparse_tensor_dense_matmul on the GPU (float32: the dtypes TensorFlow differentiates are float32
 * and float64, and float64 runs on the JS kernels), read as the JS kernel reads it: Q = S·D (matmulPlan), GQ the
 * gradient of Q (grad, or grad transposed: read through strides, never transposed).
 *
 * - D's gradient Sᵀ·GQ is the forward SpMM with S grouped by its other coordinate (a counting sort, as the
 *   forward kernel sorts), written transposed where D was read transposed;
 * - each stored value's is GQ[row] · D[col], one invocation per entry, in the JS kernel's order.
 *
 * Both passes go in one submission and come back in one read.
 */
export const sparseTensorDenseMatmulGrad: KernelFactory<'sparse_tensor_dense_matmul_grad'> =
  (ctx, js) => async (args) => {
    const { sparseFirst, sp, dn, swapSparse, transposeDense, m, n } = matmulPlan(args);
    const dtype = sp.dtype;
    const nnz = sp.values.length;
    const [dRows, dCols] = dn.shape;
    const k = transposeDense ? dCols : dRows;
    const why =
      dtype === 'int32'
        ? REASONS.notComputed(dtype) // not a dtype of the op's: its JS kernel says what it says
        : refusal(
            ctx,
            dtype,
            [sp.values, dn.data, args.grad.data],
            [m, n, k],
            [m * n * 4, (k + 1) * 4, nnz * 8, dRows * dCols * 4],
          );
    if (why) return delegation(js(args), why);
    const gpuDType = 'float32' as const;

    const denseBytes = dRows * dCols * 4;
    let denseGrad: Float32Array;
    let valuesGrad: Float32Array;
    if (denseBytes === 0 && nnz === 0) {
      denseGrad = zeros(gpuDType, 0) as Float32Array;
      valuesGrad = zeros(gpuDType, 0) as Float32Array;
    } else {
      // GQ [m × n]: grad itself ([m, n]) when the sparse operand is first, else grad ([n, m]) read transposed.
      const [gr, gj] = strides(sparseFirst ? n : m, !sparseFirst);
      const [dc, dj] = strides(dCols, transposeDense);
      const g = ctx.upload(args.grad.data as Float32Array);
      const d = ctx.upload(dn.data as Float32Array);
      const [ri, ci] = swapSparse ? [1, 0] : [0, 1];
      const rc = new Uint32Array(2 * nnz);
      for (let e = 0; e < nnz; e++) {
        rc[2 * e] = sp.indices[2 * e + ri];
        rc[2 * e + 1] = sp.indices[2 * e + ci];
      }
      const params = ctx.upload(Uint32Array.of(nnz, n, gr, gj, dc, dj));
      const pairs = ctx.upload(rc);
      const sampled = ctx.buffer(nnz * 4);
      ctx.dispatch({ code: sampledSource(gpuDType), buffers: [params, pairs, g, d, sampled], threads: nnz });
      // D's gradient [k × n]: entries grouped by column of S, times GQ's rows.
      const spmm = recordSpmm(ctx, {
        csr: csrOf(sp, swapSparse ? 0 : 1, k),
        d: g,
        sk: gr,
        sj: gj,
        rows: k,
        n,
        transposed: transposeDense,
        dtype: gpuDType,
      });
      try {
        const [dOut, vOut] = await ctx.read([spmm[0], denseBytes], [sampled, nnz * 4]);
        denseGrad = viewOf(gpuDType, dOut) as Float32Array;
        valuesGrad = viewOf(gpuDType, vOut) as Float32Array;
      } finally {
        ctx.release(g, d, params, pairs, sampled, ...spmm);
      }
      if (!allNormal(denseGrad) || !allNormal(valuesGrad)) return delegation(js(args), REASONS.nonFiniteResult);
    }
    const dense: DenseData = { kind: 'dense', data: denseGrad, shape: [...dn.shape], dtype };
    const values: DenseData = { kind: 'dense', data: valuesGrad, shape: [nnz], dtype };
    return sparseFirst ? { sp_a_grad: values, b_grad: dense } : { sp_a_grad: dense, b_grad: values };
  };
