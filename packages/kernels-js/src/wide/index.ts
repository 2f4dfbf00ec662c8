// The ops whose kernels do arithmetic on indices and dims, held exactly for a dim past 2^53 - 1 (spec
// `kernel.wide_dims: exact`). Every backend runs them here: BigInt arithmetic is JavaScript's.
import { wideSparseReshape } from './sparse_reshape.js';
import { wideSparseSlice } from './sparse_slice.js';

export const WIDE_KERNELS: Record<string, (args: Record<string, unknown>) => Record<string, unknown>> = {
  sparse_reshape: wideSparseReshape as never,
  sparse_slice: wideSparseSlice as never,
};
