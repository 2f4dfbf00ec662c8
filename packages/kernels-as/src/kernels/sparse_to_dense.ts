import { delegate } from '@sparse/kernel-abi';
import type { DenseData, KernelTable, OpKernel, Scalar } from '@sparse/kernel-abi';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS } from '../delegation.js';
import { isNumeric } from '../kernel.js';
import { scatter } from '../scatter-to-dense.js';

/** sparse_to_dense: offsets in wasm, values scattered on the JS side (scatter-to-dense.ts says why). */
export function sparseToDense(ctx: WasmContext, js: KernelTable['sparse_to_dense']): OpKernel<'sparse_to_dense'> {
  return (args) => {
    const ind = args.sparse_indices as DenseData;
    const vals = args.sparse_values as DenseData;
    const shape = args.output_shape as number[];
    if (!isNumeric(vals.dtype)) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(shape)) return delegate(js, args, REASONS.wideDims);
    const nnz = ind.shape.length === 0 ? 1 : ind.shape[0];
    const indices = Array.from(ind.data as ArrayLike<number | bigint>, Number);
    return {
      output: scatter(
        ctx,
        indices,
        nnz,
        vals.data,
        vals.shape.length === 0,
        shape,
        vals.dtype,
        args.default_value as Scalar,
      ),
    };
  };
}
