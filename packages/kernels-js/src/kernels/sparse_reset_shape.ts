import type { SparseResetShapeKernel } from '@sparse/kernel-abi';
import { takeValues } from '@sparse/kernel-abi';

/**
 * `sp_input` with its dense shape replaced: by `new_shape` (checked by the runtime to be at least the input's
 * shape in every dim), or, for null, by the tight bounding box of its indices (max index + 1 per dim, 0 when
 * there are no entries). Indices and values are copied unchanged. O(N × rank).
 */
export const sparseResetShape: SparseResetShapeKernel = ({ sp_input, new_shape }) => {
  const { indices, values, shape, dtype } = sp_input;
  const rank = shape.length;
  const n = values.length;
  let out: number[];
  if (new_shape === null) {
    out = new Array<number>(rank).fill(0);
    for (let i = 0, k = 0; i < n; i++) {
      for (let d = 0; d < rank; d++, k++) if (indices[k] + 1 > out[d]) out[d] = indices[k] + 1;
    }
  } else {
    out = [...new_shape];
  }
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  return {
    output: { kind: 'sparse', indices: indices.slice(), values: takeValues(values, dtype, all), shape: out, dtype },
  };
};
