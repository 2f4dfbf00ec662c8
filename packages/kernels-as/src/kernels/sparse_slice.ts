import { delegate } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { valueBytes, sparse } from '../kernel.js';

/** sparse_slice: the box test and the compaction in wasm, the box clamped to the dense shape (so it fits i32). */
export function sparseSlice(ctx: WasmContext, js: KernelTable['sparse_slice']): OpKernel<'sparse_slice'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const start = args.start as number[];
    const size = args.size as number[];
    const vb = valueBytes(sp.dtype);
    if (!vb) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const { shape, dtype } = sp;
    const rank = shape.length;
    const n = sp.values.length;
    if (n * (rank * 24 + vb * 2) + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const end = start.map((s, d) => s + size[d]);
    // Every index is below its dim, so clamping both ends of the box to the dim changes no comparison.
    const lo = start.map((s, d) => Math.min(s, shape[d]));
    const hi = end.map((e, d) => Math.min(e, shape[d]));
    const { heap } = ctx;
    ctx.begin();
    const idx = ctx.indicesOf(sp);
    const loP = heap.putI32(lo);
    const hiP = heap.putI32(hi);
    const vals = ctx.valuesOf(sp);
    const outIdx = heap.alloc(n * rank * 4);
    const outVals = heap.alloc(n * vb);
    const m = ctx.call(`slice_${vb}`, [idx, n, rank, loP, hiP, vals, outIdx, outVals]);
    const outShape = shape.map((dim, d) => Math.max(Math.min(end[d], dim) - start[d], 0));
    return {
      output: sparse(ctx.heap.readIndices(outIdx, m * rank), heap.readValues(dtype, outVals, m), outShape, dtype),
    };
  };
}
