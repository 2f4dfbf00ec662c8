import { delegate } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { sortGather, whyNotSortable } from '../sort-gather.js';

/** sparse_reorder: canonical order, stable, by the shared wasm sort. */
export function sparseReorder(ctx: WasmContext, js: KernelTable['sparse_reorder']): OpKernel<'sparse_reorder'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const why = whyNotSortable(sp, 8);
    if (why) return delegate(js, args, why);
    const n = sp.values.length;
    ctx.begin();
    const idx = ctx.indicesOf(sp);
    const vals = ctx.valuesOf(sp);
    return { output: sortGather(ctx, idx, vals, n, sp.shape.slice(), sp.dtype) };
  };
}
