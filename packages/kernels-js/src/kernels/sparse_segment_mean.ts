import type { SparseSegmentMeanKernel } from '@sparse/kernel-abi';
import { segmentReduce } from '../segment-reduce.js';

/** The mean of the rows of each segment (segment-reduce.ts). */
export const sparseSegmentMean: SparseSegmentMeanKernel = (args) => ({ output: segmentReduce(args, 'mean') });
