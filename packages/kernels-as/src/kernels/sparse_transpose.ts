import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { delegate } from '../delegate.js';
import { rowsOf } from '../kernel.js';
import { sortGather, whyNotSortable } from '../sort-gather.js';

/** sparse_transpose: the index columns permuted in wasm, then the shared sort. */
export function sparseTranspose(ctx: WasmContext, js: KernelTable['sparse_transpose']): OpKernel<'sparse_transpose'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const why = whyNotSortable(sp, 12);
    if (why) return delegate(js, args, why);
    const n = sp.values.length;
    const rank = sp.shape.length;
    const p = (args.perm as number[] | null) ?? sp.shape.map((_, d) => rank - 1 - d);
    const shape = p.map((d) => sp.shape[d]);
    const { heap } = ctx;
    heap.reset();
    const idx = ctx.putIndices(rowsOf(sp));
    const perm = heap.putI32(p);
    const moved = heap.alloc(n * rank * 4);
    const vals = heap.putValues(sp.dtype, sp.values);
    ctx.call('permute_cols', [idx, n, rank, perm, moved]);
    return { output: sortGather(ctx, moved, vals, n, shape, sp.dtype) };
  };
}
