import { delegation, lookupPlan, type Combiner } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { lookupOnGpu } from '../embedding/combine.js';

/**
 * embedding_lookup_sparse (float32) on the GPU: the host plan of embedding/combine.ts over kernel-abi's lookupPlan
 * (rows by the first coordinate, up to the last row holding an id), then one invocation per output element.
 */
export const embeddingLookupSparse: KernelFactory<'embedding_lookup_sparse'> = (ctx, js) => async (args) => {
  const result = await lookupOnGpu(
    ctx,
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
  );
  return 'reason' in result ? delegation(js(args), result.reason) : { output: result.output };
};
