import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { delegate } from '../delegate.js';
import { rowsOf } from '../kernel.js';
import { sortGather, whyNotSortable } from '../sort-gather.js';

/** sparse_reorder: canonical order, stable, by the shared wasm sort. */
export function sparseReorder(ctx: WasmContext, js: KernelTable['sparse_reorder']): OpKernel<'sparse_reorder'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const why = whyNotSortable(sp, 8);
    if (why) return delegate(js, args, why);
    const n = sp.values.length;
    const { heap } = ctx;
    heap.reset();
    const idx = ctx.putIndices(rowsOf(sp));
    const vals = heap.putValues(sp.dtype, sp.values);
    return { output: sortGather(ctx, idx, vals, n, sp.shape.slice(), sp.dtype) };
  };
}
