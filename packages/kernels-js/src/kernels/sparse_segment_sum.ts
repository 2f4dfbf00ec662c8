import type { SparseSegmentSumKernel } from '@sparse/kernel-abi';
import { segmentReduce } from '../segment-reduce.js';

/** The rows of each segment added up (segment-reduce.ts). */
export const sparseSegmentSum: SparseSegmentSumKernel = (args) => ({ output: segmentReduce(args, 'sum') });
