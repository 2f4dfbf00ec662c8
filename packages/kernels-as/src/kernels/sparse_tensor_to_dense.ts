import { delegate } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, Scalar, SparseData } from '@sparse/kernel-abi';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS } from '../delegation.js';
import { isNumeric } from '../kernel.js';
import { scatter } from '../scatter-to-dense.js';

/** sparse_tensor_to_dense: offsets in wasm, values scattered on the JS side (scatter-to-dense.ts says why). */
export function sparseTensorToDense(
  ctx: WasmContext,
  js: KernelTable['sparse_tensor_to_dense'],
): OpKernel<'sparse_tensor_to_dense'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    if (!isNumeric(sp.dtype)) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    return {
      output: scatter(ctx, sp, sp.values.length, sp.values, false, sp.shape, sp.dtype, args.default_value as Scalar),
    };
  };
}
