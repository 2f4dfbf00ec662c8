import type { KernelFactory } from '../kernel.js';
import { reduceSegments } from '../segments/reduce.js';

/** sparse_segment_sqrt_n on the GPU: one invocation per output element over its segment's rows (segments/reduce.ts). */
export const sparseSegmentSqrtN: KernelFactory<'sparse_segment_sqrt_n'> = (ctx, js) => (args) =>
  reduceSegments(ctx, js, args, 'sqrt_n');
