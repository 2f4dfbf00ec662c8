import type { KernelFactory } from '../kernel.js';
import { reduceSegments } from '../segments/reduce.js';

/** sparse_segment_mean on the GPU: one invocation per output element over its segment's rows (segments/reduce.ts). */
export const sparseSegmentMean: KernelFactory<'sparse_segment_mean'> = (ctx, js) => (args) =>
  reduceSegments(ctx, js, args, 'mean');
