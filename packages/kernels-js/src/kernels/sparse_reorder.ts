import type { SparseReorderKernel } from '@sparse/kernel-abi';
import { canonicalOrder, takeRows, takeValues } from '@sparse/kernel-abi';

/** `sp_input` in canonical row-major order; entries with the same index keep their relative order. */
export const sparseReorder: SparseReorderKernel = ({ sp_input }) => {
  const { indices, values, shape, dtype } = sp_input;
  const order = canonicalOrder(indices, values.length, shape);
  return {
    output: {
      kind: 'sparse',
      indices: takeRows(indices, shape.length, order),
      values: takeValues(values, dtype, order),
      shape: [...shape],
      dtype,
    },
  };
};
