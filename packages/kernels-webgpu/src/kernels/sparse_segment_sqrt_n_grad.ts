import type { KernelFactory } from '../kernel.js';
import { segmentGradient } from '../segments/gradient.js';

/** sparse_segment_sqrt_n_grad on the GPU: the scatter grouped by destination row on the host (segments/gradient.ts). */
export const sparseSegmentSqrtNGrad: KernelFactory<'sparse_segment_sqrt_n_grad'> = (ctx, js) => (args) =>
  segmentGradient(ctx, js, args, 'sqrt_n');
