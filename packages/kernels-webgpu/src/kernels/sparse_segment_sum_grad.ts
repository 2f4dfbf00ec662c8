import type { KernelFactory } from '../kernel.js';
import { segmentGradient } from '../segments/gradient.js';

/** sparse_segment_sum_grad on the GPU: the scatter grouped by destination row on the host (segments/gradient.ts). */
export const sparseSegmentSumGrad: KernelFactory<'sparse_segment_sum_grad'> = (ctx, js) => (args) =>
  segmentGradient(ctx, js, args, 'sum');
