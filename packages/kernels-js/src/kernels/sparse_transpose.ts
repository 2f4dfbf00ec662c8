import type { SparseTransposeKernel } from '@sparse/kernel-abi';
import { canonicalOrder, takeRows, takeValues } from '@sparse/kernel-abi';

/**
 * Output dim d is input dim `perm[d]` (null: the dims reversed): each index is permuted, the dense shape too, and
 * the entries are put back in canonical row-major order (a stable O(N log N) sort that compares index tuples
 * when the dense shape has more than 2^53 elements). The runtime has checked that `perm` is a permutation.
 */
export const sparseTranspose: SparseTransposeKernel = ({ sp_input, perm }) => {
  const { indices, values, shape, dtype } = sp_input;
  const rank = shape.length;
  const n = values.length;
  const p = perm ?? shape.map((_, d) => rank - 1 - d);
  const outShape = p.map((d) => shape[d]);
  const moved = new Float64Array(n * rank);
  for (let i = 0, k = 0; i < n; i++) {
    const base = i * rank;
    for (let d = 0; d < rank; d++, k++) moved[k] = indices[base + p[d]];
  }
  const order = canonicalOrder(moved, n, outShape);
  return {
    output: {
      kind: 'sparse',
      indices: takeRows(moved, rank, order),
      values: takeValues(values, dtype, order),
      shape: outShape,
      dtype,
    },
  };
};
