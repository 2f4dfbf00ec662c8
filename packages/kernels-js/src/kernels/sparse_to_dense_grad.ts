import type { SparseToDenseGradKernel } from '@sparse/kernel-abi';
import { allocValues } from '@sparse/kernel-abi';
import { gatherFromDense, unwrittenSum } from '../gather-dense.js';

/**
 * TensorFlow's gradient of SparseToDense for its values: each gets grad at its index (a scalar `sparse_values`, the
 * sum over its indices); of a repeated index only the last entry, the one the result holds, gets grad. The indices
 * come as the forward op takes them: a scalar, a vector or a matrix. `default_value` gets the sum of grad where no
 * index is.
 */
export const sparseToDenseGrad: SparseToDenseGradKernel = ({
  sparse_indices,
  sparse_values,
  grad,
  validate_indices,
}) => {
  const dtype = sparse_values.dtype;
  const indices = Float64Array.from(sparse_indices.data as ArrayLike<number | bigint>, Number);
  const n = sparse_indices.shape.length === 0 ? 1 : sparse_indices.shape[0];
  const values = gatherFromDense({
    indices,
    n,
    grad,
    repeats: !validate_indices,
    broadcast: sparse_values.shape.length === 0,
    dtype,
  });
  // default_value: the sum of grad where no index wrote, in float64, rounded once.
  const unwritten = allocValues(dtype, 1) as Float64Array;
  unwritten[0] = unwrittenSum(indices, n, grad);
  return {
    sparse_values_grad: { kind: 'dense', data: values, shape: [...sparse_values.shape], dtype },
    default_value_grad: { kind: 'dense', data: unwritten, shape: [], dtype },
  };
};
