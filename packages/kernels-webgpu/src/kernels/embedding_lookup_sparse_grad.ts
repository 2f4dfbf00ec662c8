import { delegation } from '@sparse/kernel-abi';
import type { KernelFactory } from '../kernel.js';
import { gradOnGpu } from '../embedding/grad.js';

/**
 * The gradient of embedding_lookup_sparse on the GPU (float32, without max_norm: embedding/grad.ts); float64,
 * and max_norm's gradient through each row's norm, run on the JS kernels.
 */
export const embeddingLookupSparseGrad: KernelFactory<'embedding_lookup_sparse_grad'> = (ctx, js) => async (args) => {
  const result = await gradOnGpu(ctx, args);
  return 'reason' in result
    ? delegation(js(args), result.reason)
    : { params_grad: result.params_grad, sp_weights_grad: result.sp_weights_grad };
};
