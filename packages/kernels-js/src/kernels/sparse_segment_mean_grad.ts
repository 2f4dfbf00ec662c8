import type { SparseSegmentMeanGradKernel } from '@sparse/kernel-abi';
import { segmentGradient } from '../segment-gradient.js';

/** TensorFlow's SparseSegmentMeanGrad: each selected row of grad over its segment's count (segment-gradient.ts). */
export const sparseSegmentMeanGrad: SparseSegmentMeanGradKernel = ({ grad, indices, segment_ids, output_dim0 }) => ({
  output: segmentGradient(grad, indices, segment_ids, output_dim0, 'mean'),
});
