import type { KernelTable, OpKernel } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { segmentReduceKernel } from '../segment-reduce.js';

/** sparse_segment_mean: the mean of the rows of each segment, in wasm (segment-reduce.ts). */
export function sparseSegmentMean(
  ctx: WasmContext,
  js: KernelTable['sparse_segment_mean'],
): OpKernel<'sparse_segment_mean'> {
  return segmentReduceKernel(ctx, js, 'mean');
}
