import type { SparseMergeGradKernel } from '@sparse/kernel-abi';
import { allocValues, canonicalOrder } from '@sparse/kernel-abi';

/**
 * The gradient of tf.sparse.merge for the values, SparseReorder's (which the merge runs unless `already_sorted`):
 * each value gets the gradient of the output entry it became, found by the forward op's own stable sort of the
 * merged indices (the leading dims of `sp_ids[0]`, then each id). The runtime has checked the ids. O(N log N).
 */
export const sparseMergeGrad: SparseMergeGradKernel = ({ sp_ids, sp_values, vocab_size, already_sorted, grad }) => {
  const { dtype } = sp_values;
  const n = sp_values.values.length;
  const g = grad.data as Float64Array;
  if (already_sorted) return { sp_values_grad: { kind: 'dense', data: g.slice(), shape: [n], dtype } };
  const ids = Array.isArray(sp_ids) ? sp_ids : [sp_ids];
  const vocab = Array.isArray(vocab_size) ? vocab_size : [vocab_size];
  const first = ids[0];
  const inRank = first.shape.length;
  const kept = inRank - 1;
  const outRank = kept + ids.length;
  const merged = new Float64Array(n * outRank);
  for (let i = 0; i < n; i++) {
    const o = i * outRank;
    for (let d = 0; d < kept; d++) merged[o + d] = first.indices[i * inRank + d];
    for (let j = 0; j < ids.length; j++) merged[o + kept + j] = Number(ids[j].values[i]);
  }
  const order = canonicalOrder(merged, n, [...first.shape.slice(0, kept), ...vocab]);
  const out = allocValues(dtype, n) as Float64Array;
  for (let k = 0; k < n; k++) out[order[k]] = g[k];
  return { sp_values_grad: { kind: 'dense', data: out, shape: [n], dtype } };
};
