import type { SparseToDenseGradKernel } from '@sparse/kernel-abi';
import { gatherFromDense } from '../gather-dense.js';

/**
 * TensorFlow's gradient of SparseToDense for its values: each gets grad at its index (a scalar `sparse_values`, the
 * sum over its indices); of a repeated index only the last entry, the one the result holds, gets grad. The indices
 * come as the forward op takes them: a scalar, a vector or a matrix.
 */
export const sparseToDenseGrad: SparseToDenseGradKernel = ({
  sparse_indices,
  sparse_values,
  grad,
  validate_indices,
}) => {
  const dtype = sparse_values.dtype;
  const values = gatherFromDense({
    indices: Float64Array.from(sparse_indices.data as ArrayLike<number | bigint>, Number),
    n: sparse_indices.shape.length === 0 ? 1 : sparse_indices.shape[0],
    grad,
    repeats: !validate_indices,
    broadcast: sparse_values.shape.length === 0,
    dtype,
  });
  return { sparse_values_grad: { kind: 'dense', data: values, shape: [...sparse_values.shape], dtype } };
};
