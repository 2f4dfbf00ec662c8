import type { DenseData, KernelTable, OpKernel } from '@sparse/kernel-abi';
import { allocValues, sizeOf } from '@sparse/kernel-abi';
import { bytesPerElement } from '../heap.js';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { delegate } from '../delegate.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { isNumeric } from '../kernel.js';

const I32_MAX = 2 ** 31 - 1;

/** sparse_segment_sum: data rows gathered by the indices and added into their segments, SIMD along the rows. */
export function sparseSegmentSum(
  ctx: WasmContext,
  js: KernelTable['sparse_segment_sum'],
): OpKernel<'sparse_segment_sum'> {
  return (args) => {
    const data = args.data as DenseData;
    const { dtype } = data;
    if (!isNumeric(dtype)) return delegate(js, args, REASONS.notNumeric);
    const idx = (args.indices as DenseData).data as ArrayLike<number | bigint>;
    const ids = (args.segment_ids as DenseData).data as ArrayLike<number | bigint>;
    const n = idx.length;
    const inner = sizeOf(data.shape.slice(1));
    const rows = n === 0 ? 0 : Number(ids[n - 1]) + 1;
    const shape = [rows, ...data.shape.slice(1)];
    // No indices or empty rows: an empty output, nothing to add.
    if (n === 0 || inner === 0)
      return { output: { kind: 'dense', data: allocValues(dtype, 0), shape, dtype } satisfies DenseData };
    if (!fitsI32(data.shape) || rows > I32_MAX) return delegate(js, args, REASONS.wideDims);
    const bpe = bytesPerElement(dtype);
    if ((data.data.length + rows * inner) * bpe + n * 16 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    const src = heap.putValues(dtype, data.data);
    const ip = ctx.putIds(idx);
    const sp = ctx.putIds(ids);
    const out = heap.zeros(dtype, rows * inner);
    ctx.call(`segment_sum_${dtype}`, [src, inner, ip, sp, n, out]);
    return {
      output: { kind: 'dense', data: heap.readValues(dtype, out, rows * inner), shape, dtype } satisfies DenseData,
    };
  };
}
