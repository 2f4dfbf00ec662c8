import {
  delegate,
  type DenseData,
  isDelegation,
  type KernelTable,
  matmulPlan,
  type OpKernel,
} from '@sparse/kernel-abi';
import { kernels as jsKernels } from '@sparse/kernels-js';
import { bytesPerElement } from '../heap.js';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS } from '../delegation.js';
import { sparseTensorDenseMatmul } from './sparse_tensor_dense_matmul.js';

/**
 * The gradient of sparse_tensor_dense_matmul in wasm, read as the JS kernel reads it (one product Q = S·D of the
 * sparse operand and the dense one, GQ the gradient of Q): the dense operand's gradient Sᵀ·GQ by the wasm SpMM
 * with the adjoint flipped (transposed back in wasm where D was transposed), the stored values' by one pass of
 * sampled dot products of GQ's rows with D's.
 */
export function sparseTensorDenseMatmulGrad(
  ctx: WasmContext,
  js: KernelTable['sparse_tensor_dense_matmul_grad'],
): OpKernel<'sparse_tensor_dense_matmul_grad'> {
  const product = sparseTensorDenseMatmul(ctx, jsKernels.sparse_tensor_dense_matmul);
  return (args) => {
    const { sparseFirst, sp, dn, swapSparse, transposeDense, m, n } = matmulPlan(args);
    if (!fitsI32(sp.shape) || !fitsI32(dn.shape) || !fitsI32(args.grad.shape))
      return delegate(js, args, REASONS.wideDims);
    const dtype = sp.dtype as 'float32' | 'float64';
    const size = bytesPerElement(dtype);
    const [dRows, dCols] = dn.shape;
    const k = transposeDense ? dCols : dRows;
    const { heap } = ctx;
    // GQ = grad, or its transpose when the plan computes the transposed product.
    let gq: DenseData = args.grad;
    if (!sparseFirst) {
      ctx.begin();
      const g = heap.putValues(dtype, args.grad.data);
      const t = heap.alloc(m * n * size);
      ctx.call(`transpose_${size}`, [g, n, m, t]);
      gq = { kind: 'dense', data: heap.readValues(dtype, t, m * n), shape: [m, n], dtype };
    }
    // D's gradient [k × n] by the SpMM (its own call: it lays out its scratch afresh).
    const dGrad = product({ sp_a: sp, b: gq, adjoint_a: !swapSparse, adjoint_b: false });
    const dGradData = (isDelegation(dGrad) ? dGrad.outputs : dGrad).output.data;
    ctx.begin();
    const idx = ctx.indicesOf(sp);
    const x = heap.putValues(dtype, gq.data);
    let d = ctx.dataOf(dn);
    if (transposeDense) {
      const t = heap.alloc(dRows * dCols * size);
      ctx.call(`transpose_${size}`, [d, dRows, dCols, t]);
      d = t;
    }
    const nnz = sp.values.length;
    const out = heap.alloc(nnz * size);
    ctx.call(`sampled_products_${dtype}`, [idx, nnz, swapSparse, x, d, n, out]);
    const values = heap.readValues(dtype, out, nnz);
    let denseGrad = dGradData;
    if (transposeDense) {
      const g = heap.putValues(dtype, dGradData);
      const t = heap.alloc(k * n * size);
      ctx.call(`transpose_${size}`, [g, k, n, t]);
      denseGrad = heap.readValues(dtype, t, k * n);
    }
    const sparseOut: DenseData = { kind: 'dense', data: values, shape: [nnz], dtype };
    const denseOut: DenseData = { kind: 'dense', data: denseGrad, shape: transposeDense ? [n, k] : [k, n], dtype };
    return sparseFirst ? { sp_a_grad: sparseOut, b_grad: denseOut } : { sp_a_grad: denseOut, b_grad: sparseOut };
  };
}
