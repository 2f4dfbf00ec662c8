import { delegation } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { sortEntries } from '../structural/sort-entries.js';

/**
 * sparse_reorder (float32, int32, float64, int64 and bool, values moved as their words) on the GPU: a stable radix sort
 * of the entries by their 32-bit row-major key (structural/sort-entries.ts), where the dense shape has at most 2^32
 * elements; entries sharing an index keep their input order, as TensorFlow's and the JS kernel's. Strings, larger
 * shapes and bindings past the device's limit run on the JS kernels, saying so.
 */
export const sparseReorder: KernelFactory<'sparse_reorder'> = (ctx, js) => async (args) => {
  const sp = args.sp_input;
  const cols = sp.shape.map((_, d) => d);
  const r = await sortEntries(ctx, sp, cols, [...sp.shape]);
  return typeof r === 'string' ? delegation(js(args), r) : r;
};
