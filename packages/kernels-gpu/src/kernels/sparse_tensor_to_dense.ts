import { delegate } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import type { GpuContext } from '../gpu-context.js';
import { gpuScatterToDense } from '../scatter.js';

/** sparse_tensor_to_dense (float32, and int32 within 2^24) on the GPU: the stored values gathered into a default-filled dense tensor. */
export function sparseTensorToDense(
  ctx: GpuContext,
  js: KernelTable['sparse_tensor_to_dense'],
): OpKernel<'sparse_tensor_to_dense'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const out = gpuScatterToDense(ctx, {
      indices: sp.indices,
      n: sp.values.length,
      values: sp.values,
      dtype: sp.dtype,
      broadcast: false,
      shape: sp.shape,
      defaultValue: args.default_value as number,
    });
    return typeof out === 'string' ? delegate(js, args, out) : { output: out };
  };
}
