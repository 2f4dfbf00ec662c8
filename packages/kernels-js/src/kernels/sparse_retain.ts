import type { SparseRetainKernel } from '@sparse/kernel-abi';
import { takeRows, takeValues } from '@sparse/kernel-abi';

/** The entries of `sp_input` whose `to_retain` flag is true, in their input order; the dense shape stays. O(N). */
export const sparseRetain: SparseRetainKernel = ({ sp_input, to_retain }) => {
  const { indices, values, shape, dtype } = sp_input;
  const keep = to_retain.data as Uint8Array;
  const n = values.length;
  let m = 0;
  for (let i = 0; i < n; i++) if (keep[i]) m++;
  const order = new Uint32Array(m);
  for (let i = 0, k = 0; i < n; i++) if (keep[i]) order[k++] = i;
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
