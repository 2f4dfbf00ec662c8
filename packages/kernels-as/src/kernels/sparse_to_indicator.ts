import type { DenseData, KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import { delegate, rowMajorStrides, sizeOf } from '@sparse/kernel-abi';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS, WASM_BYTES } from '../delegation.js';

/**
 * sparse_to_indicator: each entry's offset computed in wasm (below 2^31: the runtime caps the output), the 1s set
 * on the JS side in an output allocated there: zeroed pages come free, where filling them in wasm memory and
 * copying them out would touch every byte twice (the output may be far larger than the entries).
 */
export function sparseToIndicator(
  ctx: WasmContext,
  js: KernelTable['sparse_to_indicator'],
): OpKernel<'sparse_to_indicator'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const vocab = args.vocab_size as number;
    const rank = sp.shape.length;
    const outShape = [...sp.shape.slice(0, -1), vocab];
    if (!fitsI32(outShape)) return delegate(js, args, REASONS.wideDims);
    const size = sizeOf(outShape);
    const ib = sp.dtype === 'int64' ? 8 : 4;
    const n = sp.values.length;
    if (n * (rank * 12 + ib + 4) + rank * 4 + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    ctx.begin();
    const idx = ctx.indicesOf(sp); // the last column is discarded (and not bounded): it may saturate, unread
    const strides = heap.putI32(rowMajorStrides(outShape));
    const ids = ctx.valuesOf(sp);
    const offsets = heap.alloc(n * 4);
    ctx.call(`to_indicator_offsets_${ib}`, [idx, n, rank, strides, ids, offsets]);
    const data = new Uint8Array(size);
    for (const off of heap.i32(offsets, n)) data[off] = 1;
    return { output: { kind: 'dense', data, shape: outShape, dtype: 'bool' } satisfies DenseData };
  };
}
