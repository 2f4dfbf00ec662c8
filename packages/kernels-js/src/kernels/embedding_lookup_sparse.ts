import { lookupPlan, type Combiner, type EmbeddingLookupSparseKernel } from '@sparse/kernel-abi';
import { combineEmbeddings } from '../embedding-combine.js';

/**
 * One output row per row of `sp_ids` up to the last that holds an id: the ids' rows of `params` (each scaled to
 * `max_norm` first), times their weights, combined by `combiner`. The runtime has checked the order of the rows,
 * the ids (rows of `params`) and the weights (one per id). O(ids · row size + output size).
 */
export const embeddingLookupSparse: EmbeddingLookupSparseKernel = (args) => ({
  output: combineEmbeddings(
    {
      params: args.params,
      sp: args.sp_ids,
      weights: args.sp_weights,
      combiner: args.combiner as Combiner,
      maxNorm: args.max_norm as number | null,
      prune: false,
      defaultId: null,
    },
    lookupPlan(args.params, args.sp_ids),
  ),
});
