import type { SparseSliceKernel } from '@sparse/kernel-abi';
import { allocValues, copyValue } from '@sparse/kernel-abi';

/**
 * The part of `sp_input` inside the box `start <= index < start + size` (checked by the runtime: one entry per
 * dim, none negative), as TensorFlow's SparseSlice: each dim of the result is
 * max(min(start + size, shape) - start, 0), the kept entries move by -start and keep their order. Linear in nnz.
 * Sums of start and size beyond 2^53 round, but only upwards past every dim and index, so every comparison is exact.
 */
export const sparseSlice: SparseSliceKernel = ({ sp_input, start, size }) => {
  const { indices, values, shape, dtype } = sp_input;
  const rank = shape.length;
  const end = start.map((s, d) => s + size[d]);
  const n = values.length;
  const kept = new Uint32Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    let inside = true;
    for (let d = 0, p = i * rank; d < rank && inside; d++, p++) inside = indices[p] >= start[d] && indices[p] < end[d];
    if (inside) kept[m++] = i;
  }
  const outIndices = new Float64Array(m * rank);
  const outValues = allocValues(dtype, m);
  for (let k = 0; k < m; k++) {
    const i = kept[k];
    for (let d = 0; d < rank; d++) outIndices[k * rank + d] = indices[i * rank + d] - start[d];
    copyValue(outValues, k, values, i);
  }
  const outShape = shape.map((dim, d) => Math.max(Math.min(end[d], dim) - start[d], 0));
  return { output: { kind: 'sparse', indices: outIndices, values: outValues, shape: outShape, dtype } };
};
