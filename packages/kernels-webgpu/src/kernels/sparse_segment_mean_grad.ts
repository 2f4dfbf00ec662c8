import type { KernelFactory } from '../kernel.js';
import { segmentGradient } from '../segments/gradient.js';

/** sparse_segment_mean_grad on the GPU: the scatter grouped by destination row on the host (segments/gradient.ts). */
export const sparseSegmentMeanGrad: KernelFactory<'sparse_segment_mean_grad'> = (ctx, js) => (args) =>
  segmentGradient(ctx, js, args, 'mean');
