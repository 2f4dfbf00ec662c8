import { safeLookupPlan, type Combiner, type SafeEmbeddingLookupSparseKernel } from '@sparse/kernel-abi';
import { combineEmbeddings } from '../embedding-combine.js';

/**
 * One output row per row of `sparse_ids` (every index without its last coordinate): the rows of
 * `embedding_weights` of the ids kept (>= 0; with weights and a combiner other than sum, weight > 0), each scaled to
 * `max_norm` first, times their weights, combined by `combiner`; a row left without ids gets the embedding of
 * `default_id`, or zeros. The runtime has checked the ids kept and `default_id` where it is needed.
 * O(ids · row size + output size).
 */
export const safeEmbeddingLookupSparse: SafeEmbeddingLookupSparseKernel = (args) => ({
  output: combineEmbeddings(
    {
      params: args.embedding_weights,
      sp: args.sparse_ids,
      weights: args.sparse_weights,
      combiner: args.combiner as Combiner,
      maxNorm: args.max_norm as number | null,
      prune: true,
      defaultId: args.default_id,
    },
    safeLookupPlan(args.embedding_weights, args.sparse_ids),
  ),
});
