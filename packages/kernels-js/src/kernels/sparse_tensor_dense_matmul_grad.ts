import type { DenseData, SparseTensorDenseMatmulGradKernel } from '@sparse/kernel-abi';
import { matmulPlan } from '@sparse/kernel-abi';
import { transposeMatrix } from '../matmul-rows.js';
import { sampledProducts } from '../sampled-products.js';
import { sparseTensorDenseMatmul } from './sparse_tensor_dense_matmul.js';

/**
 * The gradient of op(sp_a) · op(b), read as the forward kernel reads it (matmul-plan.ts): one product Q = S·D of
 * the sparse operand S (its entries swapped where the plan swaps them) and the dense D ([k × n], transposed where
 * the plan transposes it), Q being the product or its transpose. With GQ the gradient of Q (grad, or its
 * transpose): D's gradient is Sᵀ·GQ, by the forward kernel with the adjoint flipped (transposed back where D
 * was), and each stored value's is row (row, col) of GQ · Dᵀ sampled at its entry. O(nnz · n + the matrices).
 */
export const sparseTensorDenseMatmulGrad: SparseTensorDenseMatmulGradKernel = (args) => {
  const { sparseFirst, sp, dn, swapSparse, transposeDense, m, n } = matmulPlan(args);
  const dtype = sp.dtype;
  const g = args.grad;
  // GQ: the gradient of Q = S·D, [m × n].
  const gq: DenseData = sparseFirst
    ? g
    : { kind: 'dense', data: transposeMatrix(g.data, n, m, dtype), shape: [m, n], dtype };
  const [dRows, dCols] = dn.shape;
  const d = transposeDense ? transposeMatrix(dn.data, dRows, dCols, dtype) : dn.data;
  const k = transposeDense ? dCols : dRows;
  const values = sampledProducts(sp.indices, sp.values.length, swapSparse, gq.data, d, n, dtype);
  const dGrad = sparseTensorDenseMatmul({ sp_a: sp, b: gq, adjoint_a: !swapSparse, adjoint_b: false }).output;
  const denseGrad: DenseData = transposeDense
    ? { kind: 'dense', data: transposeMatrix(dGrad.data, k, n, dtype), shape: [n, k], dtype }
    : dGrad;
  const sparseGrad: DenseData = { kind: 'dense', data: values, shape: [sp.values.length], dtype };
  return sparseFirst ? { sp_a_grad: sparseGrad, b_grad: denseGrad } : { sp_a_grad: denseGrad, b_grad: sparseGrad };
};
