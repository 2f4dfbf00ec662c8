import { allocValues, copyValue, toWideSparse, type SparseData, type WideSparseData } from '@sparse/kernel-abi';

/**
 * sparse_slice held exactly, for a dense shape with a dim past 2^53 - 1 or a box past it: the entries inside
 * `start <= index < start + size`, moved by -start in their order; each dim of the result is
 * max(min(start + size, shape) - start, 0), as the float kernel computes below 2^53. Linear in nnz.
 */
export function wideSparseSlice(args: {
  sp_input: SparseData | WideSparseData;
  start: readonly (number | bigint)[];
  size: readonly (number | bigint)[];
}): { output: WideSparseData } {
  const { indices, values, shape, dtype } = toWideSparse(args.sp_input);
  const rank = shape.length;
  const start = args.start.map(BigInt);
  const end = start.map((s, d) => s + BigInt(args.size[d]));
  const kept: number[] = [];
  for (let i = 0; i < values.length; i++) {
    let inside = true;
    for (let d = 0, p = i * rank; d < rank && inside; d++, p++) inside = indices[p] >= start[d] && indices[p] < end[d];
    if (inside) kept.push(i);
  }
  const outIndices = new BigInt64Array(kept.length * rank);
  const outValues = allocValues(dtype, kept.length);
  kept.forEach((i, k) => {
    for (let d = 0; d < rank; d++) outIndices[k * rank + d] = indices[i * rank + d] - start[d];
    copyValue(outValues, k, values, i);
  });
  const clip = (x: bigint) => (x > 0n ? x : 0n);
  const outShape = shape.map((dim, d) => clip((end[d] < dim ? end[d] : dim) - start[d]));
  return { output: { kind: 'wide_sparse', indices: outIndices, values: outValues, shape: outShape, dtype } };
}
