import type { DenseData, DType, KernelResult, SparseSegmentSumArgs } from '@sparse/kernel-abi';
import { allocValues, delegate, segmentRows, sizeOf } from '@sparse/kernel-abi';
import { bytesPerElement } from './heap.js';
import { fitsI32, type WasmContext } from './wasm-context.js';
import { REASONS, WASM_BYTES } from './delegation.js';
import { isNumeric } from './kernel.js';

const I32_MAX = 2 ** 31 - 1;
/** The mode numbers of assembly/segment-reduce.ts. */
const MODES = { sum: 0, mean: 1, sqrt_n: 2 } as const;

/** The arguments of each of the three ops (they share one signature). */
type SegmentArgs = SparseSegmentSumArgs;

/**
 * The wasm kernel of one of the sparse segment reductions (sum, mean, sqrt_n: one AssemblyScript loop with a mode):
 * data rows gathered by the indices and added into their segments, SIMD along the rows, each segment scaled as its
 * run of ids ends. Linear in the indices and the output.
 */
export function segmentReduceKernel(
  ctx: WasmContext,
  js: (args: SegmentArgs) => { output: DenseData },
  mode: keyof typeof MODES,
): (args: SegmentArgs) => KernelResult<{ output: DenseData }> {
  return (args) => {
    const data = args.data;
    const { dtype } = data;
    if (!isNumeric(dtype)) return delegate(js, args, REASONS.notNumeric);
    const idx = args.indices.data as ArrayLike<number | bigint>;
    const ids = args.segment_ids.data as ArrayLike<number | bigint>;
    const n = idx.length;
    const inner = sizeOf(data.shape.slice(1));
    const rows = segmentRows(ids, args.num_segments);
    const shape = [rows, ...data.shape.slice(1)];
    // Nothing to add, or rows of no elements: an output of zeros.
    if (n === 0 || inner === 0) return { output: zeros(dtype, inner === 0 ? 0 : rows * inner, shape) };
    if (!fitsI32(data.shape) || rows > I32_MAX) return delegate(js, args, REASONS.wideDims);
    const bpe = bytesPerElement(dtype);
    if ((data.data.length + rows * inner) * bpe + n * 16 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    const src = heap.putValues(dtype, data.data);
    const ip = ctx.putIds(idx);
    const sp = ctx.putIds(ids);
    const out = heap.zeros(dtype, rows * inner);
    ctx.call(`segment_reduce_${dtype}`, [src, inner, ip, sp, n, out, MODES[mode]]);
    return {
      output: { kind: 'dense', data: heap.readValues(dtype, out, rows * inner), shape, dtype } satisfies DenseData,
    };
  };
}

function zeros(dtype: DType, n: number, shape: number[]): DenseData {
  return { kind: 'dense', data: allocValues(dtype, n), shape, dtype };
}
