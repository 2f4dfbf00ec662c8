import type { DenseData, KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import { sizeOf, rowMajorStrides } from '@sparse/kernel-abi';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { delegate } from '../delegate.js';
import { REASONS, WASM_BYTES } from '../delegation.js';

/** sparse_to_indicator: the dense bool output zeroed and set in wasm (offsets below 2^31: the runtime caps it). */
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
    if (size + n * (rank * 12 + ib) + rank * 4 + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    const idx = ctx.putIndices(sp.indices); // the last column is discarded (and not bounded): it may saturate, unread
    const strides = heap.putI32(rowMajorStrides(outShape));
    const ids = heap.putValues(sp.dtype, sp.values);
    const out = heap.alloc(size);
    ctx.call(`to_indicator_${ib}`, [idx, n, rank, strides, ids, out, size]);
    const data = new Uint8Array(ctx.exports.memory.buffer, out, size).slice();
    return { output: { kind: 'dense', data, shape: outShape, dtype: 'bool' } satisfies DenseData };
  };
}
