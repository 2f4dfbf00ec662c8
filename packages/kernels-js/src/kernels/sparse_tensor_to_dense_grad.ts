import type { SparseTensorToDenseGradKernel } from '@sparse/kernel-abi';
import { allocValues } from '@sparse/kernel-abi';
import { gatherFromDense, unwrittenSum } from '../gather-dense.js';

/**
 * The gradient of tf.sparse.to_dense (TensorFlow's of SparseToDense) for the stored values: each gets grad at its
 * index; of a repeated index only the last entry, the one the result holds, gets grad. `default_value` gets the sum
 * of grad where nothing is stored.
 */
export const sparseTensorToDenseGrad: SparseTensorToDenseGradKernel = ({ sp_input, grad, validate_indices }) => {
  const { indices, dtype } = sp_input;
  const n = sp_input.values.length;
  const values = gatherFromDense({ indices, n, grad, repeats: !validate_indices, dtype });
  // default_value: the sum of grad where nothing is stored, in float64, rounded once.
  const unwritten = allocValues(dtype, 1) as Float64Array;
  unwritten[0] = unwrittenSum(indices, n, grad);
  return {
    sp_input_grad: { kind: 'dense', data: values, shape: [n], dtype },
    default_value_grad: { kind: 'dense', data: unwritten, shape: [], dtype },
  };
};
