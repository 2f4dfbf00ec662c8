import type { SparseTensorToCsrSparseMatrixGradKernel, Values } from '@sparse/kernel-abi';

/** The CsrMatrix holds the (canonically ordered) entries in their order: the gradient passes through unchanged. */
export const sparseTensorToCsrSparseMatrixGrad: SparseTensorToCsrSparseMatrixGradKernel = ({ grad }) => ({
  sp_input_grad: { kind: 'dense', data: grad.data.slice() as Values, shape: [grad.data.length], dtype: grad.dtype },
});
