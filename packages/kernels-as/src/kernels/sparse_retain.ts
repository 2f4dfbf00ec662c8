import { delegate } from '@sparse/kernel-abi';
import type { DenseData, KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { valueBytes, sparse } from '../kernel.js';

/** sparse_retain: the compaction by the mask in wasm, the index rows moved as f64 (so any dim runs here). */
export function sparseRetain(ctx: WasmContext, js: KernelTable['sparse_retain']): OpKernel<'sparse_retain'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const mask = (args.to_retain as DenseData).data as Uint8Array;
    const vb = valueBytes(sp.dtype);
    if (!vb) return delegate(js, args, REASONS.notNumeric);
    const { shape, dtype } = sp;
    const rank = shape.length;
    const n = sp.values.length;
    if (n * (rank * 16 + vb * 2 + 1) + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    ctx.begin();
    const idx = ctx.heap.putValues('float64', sp.indices);
    const keep = ctx.heap.putArray(mask);
    const vals = ctx.valuesOf(sp);
    const outIdx = heap.alloc(n * rank * 8);
    const outVals = heap.alloc(n * vb);
    const m = ctx.call(`retain_${vb}`, [idx, n, rank, keep, vals, outIdx, outVals]);
    return {
      output: sparse(
        ctx.heap.readValues('float64', outIdx, m * rank) as Float64Array,
        heap.readValues(dtype, outVals, m),
        [...shape],
        dtype,
      ),
    };
  };
}
