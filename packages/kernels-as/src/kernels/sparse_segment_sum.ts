import type { KernelTable, OpKernel } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { segmentReduceKernel } from '../segment-reduce.js';

/** sparse_segment_sum: the rows of each segment added up, in wasm (segment-reduce.ts). */
export function sparseSegmentSum(
  ctx: WasmContext,
  js: KernelTable['sparse_segment_sum'],
): OpKernel<'sparse_segment_sum'> {
  return segmentReduceKernel(ctx, js, 'sum');
}
