import type { CsrSparseMatrixToSparseTensorGradKernel, Values } from '@sparse/kernel-abi';

/** The SparseTensor holds the CsrMatrix's entries in their order: the gradient passes through unchanged. */
export const csrSparseMatrixToSparseTensorGrad: CsrSparseMatrixToSparseTensorGradKernel = ({ grad }) => ({
  sparse_matrix_grad: {
    kind: 'dense',
    data: grad.data.slice() as Values,
    shape: [grad.data.length],
    dtype: grad.dtype,
  },
});
