import type { SparseToDenseKernel } from '@sparse/kernel-abi';
import { scatterToDense } from '../scatter.js';

/**
 * A dense tensor of shape `output_shape` holding `sparse_values` at `sparse_indices` (a scalar index, a vector
 * of indices into a vector, or an [N × rank] matrix) and `default_value` elsewhere; a scalar `sparse_values`
 * goes to every index. A repeated index (allowed without `validate_indices`) keeps its last value.
 */
export const sparseToDense: SparseToDenseKernel = ({ sparse_indices, output_shape, sparse_values, default_value }) => {
  const n = sparse_indices.shape.length === 0 ? 1 : sparse_indices.shape[0];
  const indices = Float64Array.from(sparse_indices.data as ArrayLike<number | bigint>, Number);
  return {
    output: scatterToDense({
      indices,
      n,
      values: sparse_values.data,
      broadcast: sparse_values.shape.length === 0,
      shape: output_shape,
      dtype: sparse_values.dtype,
      defaultValue: default_value,
    }),
  };
};
