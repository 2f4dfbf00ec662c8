import type { DenseData, DType, Scalar, SparseData, Values } from '@sparse/kernel-abi';
import { allocValues, rowMajorStrides, sizeOf } from '@sparse/kernel-abi';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { delegate } from '../delegate.js';
import { REASONS } from '../delegation.js';
import { NUMERIC, type JsKernel, type Kernel } from './kernel.js';

/**
 * The flat offset of each entry computed in wasm, the values written at them on the JS side, into an output
 * allocated there: a dense result filled and scattered in wasm memory would then be copied out whole, touching
 * every page of it twice, and a large output's cost is its pages (first-touch faults), not the scatter.
 */
function scatter(
  ctx: WasmContext,
  indices: SparseData | ArrayLike<number>,
  nnz: number,
  values: Values,
  broadcast: boolean,
  shape: number[],
  dtype: DType,
  fill: Scalar,
): DenseData {
  const { heap } = ctx;
  let idx: number;
  if ('kind' in indices) idx = ctx.startWithIndices(indices);
  else {
    heap.reset();
    idx = heap.putI32(indices);
  }
  const strides = heap.putI32(rowMajorStrides(shape));
  const offsets = heap.alloc(nnz * 4);
  ctx.call('flat_offsets', [idx, shape.length, nnz, strides, offsets]);
  const data = allocValues(dtype, sizeOf(shape)) as Values & { fill(v: unknown): unknown; [i: number]: unknown };
  if (!Object.is(fill, 0) && fill !== 0n) data.fill(fill); // allocated zeroed; -0 is not 0 here
  const at = heap.i32(offsets, nnz);
  if (broadcast) {
    const v = values[0];
    for (let i = 0; i < nnz; i++) data[at[i]] = v;
  } else {
    for (let i = 0; i < nnz; i++) data[at[i]] = values[i];
  }
  return { kind: 'dense', data, shape: shape.slice(), dtype };
}

export function sparseTensorToDense(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const sp = args.sp_input as SparseData;
    if (!NUMERIC.has(sp.dtype)) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    return {
      output: scatter(ctx, sp, sp.values.length, sp.values, false, sp.shape, sp.dtype, args.default_value as Scalar),
    };
  };
}

export function sparseToDense(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const ind = args.sparse_indices as DenseData;
    const vals = args.sparse_values as DenseData;
    const shape = args.output_shape as number[];
    if (!NUMERIC.has(vals.dtype)) return delegate(js, args, REASONS.notNumeric);
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
