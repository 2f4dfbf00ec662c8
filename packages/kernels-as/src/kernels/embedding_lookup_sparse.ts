import { lookupPlan, type Combiner, type KernelTable, type OpKernel } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { combineInWasm } from '../embedding-combine.js';

/** embedding_lookup_sparse: gather and combine in one wasm pass (embedding-combine.ts), rows by the first coordinate. */
export function embeddingLookupSparse(
  ctx: WasmContext,
  js: KernelTable['embedding_lookup_sparse'],
): OpKernel<'embedding_lookup_sparse'> {
  return (args) =>
    combineInWasm(
      ctx,
      js,
      args,
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
}
