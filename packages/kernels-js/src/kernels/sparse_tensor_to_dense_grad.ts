import type { SparseTensorToDenseGradKernel } from '@sparse/kernel-abi';
import { gatherFromDense } from '../gather-dense.js';

/**
 * The gradient of tf.sparse.to_dense (TensorFlow's of SparseToDense) for the stored values: each gets grad at its
 * index; of a repeated index only the last entry, the one the result holds, gets grad.
 */
export const sparseTensorToDenseGrad: SparseTensorToDenseGradKernel = ({ sp_input, grad, validate_indices }) => {
  const { indices, dtype } = sp_input;
  const n = sp_input.values.length;
  const values = gatherFromDense({ indices, n, grad, repeats: !validate_indices, dtype });
  return { sp_input_grad: { kind: 'dense', data: values, shape: [n], dtype } };
};
