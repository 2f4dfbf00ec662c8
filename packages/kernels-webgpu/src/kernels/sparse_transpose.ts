import { delegation } from '@sparse/kernel-abi';
import { REASONS } from '../delegation.js';
import type { KernelFactory } from '../kernel.js';
import { sortEntries } from '../structural/sort-entries.js';

/**
 * sparse_transpose (every dtype but string, values moved as their words) on the GPU: output dim d is input dim perm[d]
 * (null: the dims reversed); the host permutes each index into its 32-bit row-major key in the output shape as it reads
 * it, and the GPU sorts the entries by key, stably, and writes the permuted indices and the values
 * (structural/sort-entries.ts). A perm that is not a permutation (the runtime refuses one) and what sortEntries does
 * not take run on the JS kernels.
 */
export const sparseTranspose: KernelFactory<'sparse_transpose'> = (ctx, js) => async (args) => {
  const sp = args.sp_input;
  const rank = sp.shape.length;
  const perm = args.perm ?? sp.shape.map((_, d) => rank - 1 - d);
  const seen = new Set<number>();
  for (const d of perm) if (Number.isInteger(d) && d >= 0 && d < rank) seen.add(d);
  if (perm.length !== rank || seen.size !== rank) return delegation(js(args), REASONS.unchecked);
  const r = await sortEntries(
    ctx,
    sp,
    perm,
    perm.map((d) => sp.shape[d]),
  );
  return typeof r === 'string' ? delegation(js(args), r) : r;
};
