import { delegate } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { sparse } from '../kernel.js';

/**
 * sparse_expand_dims: the index rows widened in wasm, as f64 (only moved, so any dim runs here); the values stay in
 * JS (so any dtype runs here too).
 */
export function sparseExpandDims(
  ctx: WasmContext,
  js: KernelTable['sparse_expand_dims'],
): OpKernel<'sparse_expand_dims'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const axis = args.axis as number;
    const rank = sp.shape.length;
    const at = axis < 0 ? axis + rank + 1 : axis;
    const n = sp.values.length;
    if (n * (2 * rank + 1) * 8 + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    let indices: Float64Array = new Float64Array(0);
    if (n > 0) {
      ctx.heap.reset();
      const idx = ctx.heap.putValues('float64', sp.indices);
      const out = ctx.heap.alloc(n * (rank + 1) * 8);
      ctx.call('expand_dims', [idx, n, rank, at, out]);
      indices = ctx.heap.readValues('float64', out, n * (rank + 1)) as Float64Array;
    }
    const outShape = [...sp.shape.slice(0, at), 1, ...sp.shape.slice(at)];
    return { output: sparse(indices, sp.values.slice(), outShape, sp.dtype) };
  };
}
