import { safeLookupPlan, type Combiner, type KernelTable, type OpKernel } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { combineInWasm } from '../embedding-combine.js';

/** safe_embedding_lookup_sparse: pruning, gather, combine and default rows in one wasm pass (embedding-combine.ts). */
export function safeEmbeddingLookupSparse(
  ctx: WasmContext,
  js: KernelTable['safe_embedding_lookup_sparse'],
): OpKernel<'safe_embedding_lookup_sparse'> {
  return (args) =>
    combineInWasm(
      ctx,
      js,
      args,
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
}
