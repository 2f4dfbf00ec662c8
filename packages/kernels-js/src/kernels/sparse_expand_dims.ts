import type { SparseExpandDimsKernel } from '@sparse/kernel-abi';

/**
 * `sp_input` with a new dim of size 1 inserted at `axis` (checked by the runtime to lie in [-rank-1, rank]; a
 * negative axis counts from the end of the result, so -1 appends). Every index gets a 0 there; the values and
 * their order stay. Linear in nnz.
 */
export const sparseExpandDims: SparseExpandDimsKernel = ({ sp_input, axis }) => {
  const { indices, values, shape, dtype } = sp_input;
  const rank = shape.length;
  const at = axis < 0 ? axis + rank + 1 : axis;
  const n = values.length;
  const out = new Float64Array(n * (rank + 1));
  for (let i = 0; i < n; i++) {
    const src = i * rank;
    const dst = i * (rank + 1);
    for (let d = 0; d < at; d++) out[dst + d] = indices[src + d];
    for (let d = at; d < rank; d++) out[dst + d + 1] = indices[src + d];
  }
  const outShape = [...shape.slice(0, at), 1, ...shape.slice(at)];
  return { output: { kind: 'sparse', indices: out, values: values.slice(), shape: outShape, dtype } };
};
