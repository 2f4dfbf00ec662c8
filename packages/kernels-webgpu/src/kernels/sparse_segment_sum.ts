import type { KernelFactory } from '../kernel.js';
import { reduceSegments } from '../segments/reduce.js';

/** sparse_segment_sum on the GPU: one invocation per output element over its segment's rows (segments/reduce.ts). */
export const sparseSegmentSum: KernelFactory<'sparse_segment_sum'> = (ctx, js) => (args) =>
  reduceSegments(ctx, js, args, 'sum');
