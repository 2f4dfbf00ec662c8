import { delegate } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { bytesPerElement } from '../heap.js';
import { sparse } from '../kernel.js';
import { sortGather, whyNotSortable } from '../sort-gather.js';

// Rows and columns a counting sort may count whatever the entries (256 KiB of counts each).
const COUNTED_DIM = 1 << 16;

/**
 * sparse_transpose: the index columns permuted in wasm, then the shared sort. A matrix whose rows never decrease
 * (canonical order, say), and not far wider than it has entries, is transposed by a counting sort by column instead:
 * linear, and the same result, since within a column the sort keeps the entries' order, which is already by row; on
 * a threaded backend each thread counts and places a range of the entries.
 */
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
    ctx.begin();
    const idx = ctx.indicesOf(sp);
    const vals = ctx.valuesOf(sp);
    // The counting sort keeps a pointer per row and a count per column: only where there are not far more of
    // either than entries (else they would pass the entries' own size, uncounted by the byte budget, for no gain
    // over the sort).
    const countable = rank === 2 && Math.max(sp.shape[0], sp.shape[1]) <= Math.max(n, COUNTED_DIM);
    if (countable && p[0] === 1 && ctx.rowIndex(sp, idx).rowsOrdered) {
      const size = bytesPerElement(sp.dtype);
      const cols = sp.shape[1];
      const outIdx = heap.alloc(n * 8);
      const outVals = heap.alloc(n * size);
      // Ranges of entries counted and placed on threads of their own (each range's own column counts: worth it
      // only where there are more entries than columns).
      const cuts = cols <= n ? ctx.cuts(n, n, (i) => i) : [0, n];
      const ranges = cuts.slice(1).map((e1, k) => ({ e0: cuts[k], e1, starts: 0 }));
      const counts = heap.alloc(ranges.length * cols * 4);
      ranges.forEach((r, k) => (r.starts = counts + k * cols * 4));
      ctx.callParts(
        'count_cols',
        ranges.map((r) => ({ args: [idx + r.e0 * 8, r.e1 - r.e0, cols, r.starts] })),
      );
      ctx.call('col_starts', [counts, ranges.length, cols]);
      ctx.callParts(
        `place_cols_${size}`,
        ranges.map((r) => ({ args: [idx + r.e0 * 8, vals + r.e0 * size, r.e1 - r.e0, r.starts, outIdx, outVals] })),
      );
      return {
        output: sparse(heap.readIndices(outIdx, n * 2), heap.readValues(sp.dtype, outVals, n), shape, sp.dtype),
      };
    }
    const perm = heap.putI32(p);
    const moved = heap.alloc(n * rank * 4);
    ctx.call('permute_cols', [idx, n, rank, perm, moved]);
    return { output: sortGather(ctx, moved, vals, n, shape, sp.dtype) };
  };
}
