import type { SparseMergeKernel } from '@sparse/kernel-abi';
import { canonicalOrder, takeRows, takeValues } from '@sparse/kernel-abi';

/**
 * Entry i of the output sits at `sp_ids[0].indices[i][:-1]` followed by the i-th id of each SparseTensor of
 * `sp_ids` and holds `sp_values.values[i]`; the dense shape is `sp_ids[0].shape[:-1]` followed by the vocab
 * sizes. Unless `already_sorted`, the entries are then put in canonical order (stable, O(N log N), exact on
 * dense shapes beyond 2^53 elements). The runtime has checked the counts, the ranks and every id's range.
 */
export const sparseMerge: SparseMergeKernel = ({ sp_ids, sp_values, vocab_size, already_sorted }) => {
  const ids = Array.isArray(sp_ids) ? sp_ids : [sp_ids];
  const vocab = Array.isArray(vocab_size) ? vocab_size : [vocab_size];
  const first = ids[0];
  const inRank = first.shape.length;
  const kept = inRank - 1;
  const m = ids.length;
  const outRank = kept + m;
  const n = first.values.length;
  const outShape = [...first.shape.slice(0, kept), ...vocab];
  const merged = new Float64Array(n * outRank);
  for (let i = 0; i < n; i++) {
    const o = i * outRank;
    for (let d = 0, k = i * inRank; d < kept; d++, k++) merged[o + d] = first.indices[k];
    for (let j = 0; j < m; j++) merged[o + kept + j] = Number(ids[j].values[i]);
  }
  const { values, dtype } = sp_values;
  const order = already_sorted ? identity(n) : canonicalOrder(merged, n, outShape);
  return {
    output: {
      kind: 'sparse',
      indices: already_sorted ? merged : takeRows(merged, outRank, order),
      values: takeValues(values, dtype, order),
      shape: outShape,
      dtype,
    },
  };
};

function identity(n: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order;
}
