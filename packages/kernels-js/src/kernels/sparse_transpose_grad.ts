import type { SparseTransposeGradKernel } from '@sparse/kernel-abi';
import { allocValues, canonicalOrder } from '@sparse/kernel-abi';

/**
 * The gradient of tf.sparse.transpose, an index permutation then SparseReorder (whose gradient TensorFlow
 * registers): each input entry gets the gradient of the output entry it became, by the forward op's stable sort of
 * the permuted indices. The runtime has checked `perm`. O(N log N).
 */
export const sparseTransposeGrad: SparseTransposeGradKernel = ({ sp_input, perm, grad }) => {
  const { indices, shape, dtype } = sp_input;
  const rank = shape.length;
  const n = sp_input.values.length;
  const p = perm ?? shape.map((_, d) => rank - 1 - d);
  const moved = new Float64Array(n * rank);
  for (let i = 0, k = 0; i < n; i++) for (let d = 0; d < rank; d++, k++) moved[k] = indices[i * rank + p[d]];
  const order = canonicalOrder(
    moved,
    n,
    p.map((d) => shape[d]),
  );
  const g = grad.data as Float64Array;
  const out = allocValues(dtype, n) as Float64Array;
  for (let k = 0; k < n; k++) out[order[k]] = g[k];
  return { sp_input_grad: { kind: 'dense', data: out, shape: [n], dtype } };
};
