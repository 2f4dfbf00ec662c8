import { delegation, safeLookupPlan, type Combiner } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { lookupOnGpu } from '../embedding/combine.js';

/**
 * safe_embedding_lookup_sparse (float32) on the GPU: the same pass as embedding_lookup_sparse over kernel-abi's
 * safeLookupPlan (every row, by every coordinate but the last), the host dropping the ids (and weights) TensorFlow
 * prunes and giving each row left without ids the default's embedding as its one entry.
 */
export const safeEmbeddingLookupSparse: KernelFactory<'safe_embedding_lookup_sparse'> = (ctx, js) => async (args) => {
  const result = await lookupOnGpu(
    ctx,
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
  );
  return 'reason' in result ? delegation(js(args), result.reason) : { output: result.output };
};
