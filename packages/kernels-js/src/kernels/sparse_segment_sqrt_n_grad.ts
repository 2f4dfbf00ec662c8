import type { SparseSegmentSqrtNGradKernel } from '@sparse/kernel-abi';
import { segmentGradient } from '../segment-gradient.js';

/** TensorFlow's SparseSegmentSqrtNGrad: each selected row of grad over the square root of its segment's count (segment-gradient.ts). */
export const sparseSegmentSqrtNGrad: SparseSegmentSqrtNGradKernel = ({ grad, indices, segment_ids, output_dim0 }) => ({
  output: segmentGradient(grad, indices, segment_ids, output_dim0, 'sqrt_n'),
});
