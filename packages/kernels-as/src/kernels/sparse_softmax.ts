import { delegate } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import { bytesPerElement } from '../heap.js';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { sparse } from '../kernel.js';

/** sparse_softmax (float32 / float64): one pass over the runs of each innermost row, in wasm. */
export function sparseSoftmax(ctx: WasmContext, js: KernelTable['sparse_softmax']): OpKernel<'sparse_softmax'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const { dtype } = sp;
    if (dtype !== 'float32' && dtype !== 'float64')
      return delegate(js, args, 'softmax is defined for float32 and float64 only: ran on the JS kernels');
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const n = sp.values.length;
    const rank = sp.shape.length;
    const bpe = bytesPerElement(dtype);
    if (n * (rank * 8 + 2 * bpe) > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    ctx.begin();
    const idx = ctx.indicesOf(sp);
    const vals = ctx.valuesOf(sp);
    const out = heap.alloc(n * bpe);
    ctx.call(`softmax_${dtype}`, [idx, n, rank, vals, out]);
    return { output: sparse(sp.indices.slice(), heap.readValues(dtype, out, n), [...sp.shape], dtype) };
  };
}
