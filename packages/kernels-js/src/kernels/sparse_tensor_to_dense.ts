import type { SparseTensorToDenseKernel } from '@sparse/kernel-abi';
import { scatterToDense } from '../scatter.js';

/** The dense tensor `sp_input` stands for, `default_value` where it stores nothing; a repeated index keeps its last value. */
export const sparseTensorToDense: SparseTensorToDenseKernel = ({ sp_input, default_value }) => ({
  output: scatterToDense({
    indices: sp_input.indices,
    n: sp_input.values.length,
    values: sp_input.values,
    shape: sp_input.shape,
    dtype: sp_input.dtype,
    defaultValue: default_value,
  }),
});
