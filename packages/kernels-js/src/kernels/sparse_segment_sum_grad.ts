import type { SparseSegmentSumGradKernel } from '@sparse/kernel-abi';
import { segmentGradient } from '../segment-gradient.js';

/** TensorFlow's SparseSegmentSumGrad: each selected row of grad added as it is (segment-gradient.ts). */
export const sparseSegmentSumGrad: SparseSegmentSumGradKernel = ({ grad, indices, segment_ids, output_dim0 }) => ({
  output: segmentGradient(grad, indices, segment_ids, output_dim0, 'sum'),
});
