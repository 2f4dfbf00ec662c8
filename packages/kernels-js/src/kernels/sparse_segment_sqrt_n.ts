import type { SparseSegmentSqrtNKernel } from '@sparse/kernel-abi';
import { segmentReduce } from '../segment-reduce.js';

/** The sum of the rows of each segment over the square root of their count (segment-reduce.ts). */
export const sparseSegmentSqrtN: SparseSegmentSqrtNKernel = (args) => ({ output: segmentReduce(args, 'sqrt_n') });
