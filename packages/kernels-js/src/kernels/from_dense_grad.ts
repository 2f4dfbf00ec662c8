import type { FromDenseGradKernel } from '@sparse/kernel-abi';
import { allocValues, linearOffset, rowMajorStrides } from '@sparse/kernel-abi';

/**
 * The gradient of tf.sparse.from_dense, a gather of the nonzero elements: each stored entry's grad goes back to
 * its element, every dropped (zero) element gets 0. O(dense size + nnz · rank).
 */
export const fromDenseGrad: FromDenseGradKernel = ({ tensor, output, grad }) => {
  const { shape, dtype } = tensor;
  const g = grad.data as Float64Array;
  const out = allocValues(dtype, tensor.data.length) as Float64Array;
  const strides = rowMajorStrides(shape);
  for (let i = 0; i < g.length; i++) out[linearOffset(output.indices, i, strides)] = g[i];
  return { tensor_grad: { kind: 'dense', data: out, shape: [...shape], dtype } };
};
