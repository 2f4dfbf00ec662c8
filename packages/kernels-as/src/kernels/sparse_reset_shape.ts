import { delegate } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { sparse } from '../kernel.js';

/**
 * sparse_reset_shape: the only computation, the tight bounding box when `new_shape` is null, runs in wasm on the
 * f64 indices (compared exactly, any dim); the indices and values are copied unchanged (any dtype).
 */
export function sparseResetShape(
  ctx: WasmContext,
  js: KernelTable['sparse_reset_shape'],
): OpKernel<'sparse_reset_shape'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const newShape = args.new_shape as number[] | null;
    const rank = sp.shape.length;
    const n = sp.values.length;
    let shape: number[];
    if (newShape !== null) shape = [...newShape];
    else {
      if (n * rank * 8 + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
      ctx.heap.reset();
      const idx = ctx.heap.putValues('float64', sp.indices);
      const out = ctx.heap.alloc(rank * 8);
      ctx.call('bounding_box', [idx, n, rank, out]);
      shape = Array.from(new Float64Array(ctx.exports.memory.buffer, out, rank));
    }
    return { output: sparse(sp.indices.slice(), sp.values.slice(), shape, sp.dtype) };
  };
}
