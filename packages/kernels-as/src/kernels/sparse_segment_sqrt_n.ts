import type { KernelTable, OpKernel } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { segmentReduceKernel } from '../segment-reduce.js';

/** sparse_segment_sqrt_n: the sum of the rows of each segment over the square root of their count, in wasm (segment-reduce.ts). */
export function sparseSegmentSqrtN(
  ctx: WasmContext,
  js: KernelTable['sparse_segment_sqrt_n'],
): OpKernel<'sparse_segment_sqrt_n'> {
  return segmentReduceKernel(ctx, js, 'sqrt_n');
}
