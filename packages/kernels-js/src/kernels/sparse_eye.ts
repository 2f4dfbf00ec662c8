import type { SparseEyeKernel } from '@sparse/kernel-abi';
import { allocIndices, filledValues } from '@sparse/kernel-abi';

/**
 * A one of the dtype at [i, i] for every i below both dims, in canonical order. The runtime has checked the dims
 * (>= 0) and counted the min(num_rows, num_columns) entries against its byte budget. O(entries).
 */
export const sparseEye: SparseEyeKernel = ({ num_rows, num_columns, dtype }) => {
  const columns = num_columns ?? num_rows;
  const n = Math.min(num_rows, columns);
  const indices = allocIndices(2 * n, false);
  for (let i = 0; i < n; i++) indices[2 * i] = indices[2 * i + 1] = i;
  return { output: { kind: 'sparse', indices, values: filledValues(dtype, n, 1), shape: [num_rows, columns], dtype } };
};
