import { delegate } from '@sparse/kernel-abi';
import type { DenseData, KernelTable, OpKernel } from '@sparse/kernel-abi';
import type { GpuContext } from '../gpu-context.js';
import { gpuScatterToDense } from '../scatter.js';

/**
 * sparse_to_dense (float32 values, and int32 within 2^24) on the GPU: a scalar, vector or [N × rank] index matrix (validated by the
 * runtime, int32 or int64), one value per index or a scalar for all; a repeated index keeps its last value.
 */
export function sparseToDense(ctx: GpuContext, js: KernelTable['sparse_to_dense']): OpKernel<'sparse_to_dense'> {
  return (args) => {
    const idx = args.sparse_indices as DenseData;
    const vals = args.sparse_values as DenseData;
    const out = gpuScatterToDense(ctx, {
      indices: Float64Array.from(idx.data as ArrayLike<number | bigint>, Number),
      n: idx.shape.length === 0 ? 1 : idx.shape[0],
      values: vals.data,
      dtype: vals.dtype,
      broadcast: vals.shape.length === 0,
      shape: args.output_shape as number[],
      defaultValue: args.default_value as number,
    });
    return typeof out === 'string' ? delegate(js, args, out) : { output: out };
  };
}
