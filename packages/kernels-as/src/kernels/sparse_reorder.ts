import type { SparseData } from '../generated/kernel-types.js';
import { bytesPerElement } from '../heap.js';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { delegate } from '../delegate.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { NUMERIC, rowsOf, type Kernel, type JsKernel } from './kernel.js';
import { sortGather, sortBytes } from '../sort-gather.js';

/** sparse_reorder: canonical order, stable, by the shared wasm sort. */
export function sparseReorder(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const sp = args.sp_input as SparseData;
    if (!NUMERIC.has(sp.dtype)) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const n = sp.values.length;
    const rank = sp.shape.length;
    const size = bytesPerElement(sp.dtype);
    if (n * (rank * 8 + size) + sortBytes(n, rank, size) > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    const idx = ctx.putIndices(rowsOf(sp));
    const vals = heap.putValues(sp.dtype, sp.values);
    return { output: sortGather(ctx, idx, vals, n, sp.shape.slice(), sp.dtype) };
  };
}
