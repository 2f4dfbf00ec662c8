import type { DenseData, DType, Scalar, SparseData, Values } from '../generated/kernel-types.js';
import { rowMajorStrides, sizeOf } from '@sparse/kernels-js/internals';
import { bytesPerElement } from '../heap.js';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { delegate } from '../delegate.js';
import { REASONS } from '../delegation.js';
import { NUMERIC, type Args } from './kernel.js';

/** Fills the dense output with the default in wasm memory, then scatters the values to their offsets. */
function scatter(ctx: WasmContext, indices: SparseData | ArrayLike<number>, nnz: number, values: Values, broadcast: boolean, shape: number[], dtype: DType, fill: Scalar): DenseData {
  const { heap } = ctx;
  const size = sizeOf(shape);
  let idx: number;
  if ('kind' in indices) idx = ctx.startWithIndices(indices);
  else {
    heap.reset();
    idx = heap.putI32(indices);
  }
  const out = heap.alloc(size * bytesPerElement(dtype));
  heap.view(dtype, out, size).fill(fill as never);
  const strides = heap.putI32(rowMajorStrides(shape));
  const vals = heap.putValues(dtype, values);
  ctx.call(`scatter_${bytesPerElement(dtype)}`, [idx, shape.length, nnz, strides, vals, broadcast, out]);
  return { kind: 'dense', data: heap.readValues(dtype, out, size), shape: shape.slice(), dtype };
}

export function sparseTensorToDense(ctx: WasmContext, js: (a: never) => Args) {
  return (args: Args): Args => {
    const sp = args.sp_input as SparseData;
    if (!NUMERIC.has(sp.dtype)) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    return { output: scatter(ctx, sp, sp.values.length, sp.values, false, sp.shape, sp.dtype, args.default_value as Scalar) };
  };
}

export function sparseToDense(ctx: WasmContext, js: (a: never) => Args) {
  return (args: Args): Args => {
    const ind = args.sparse_indices as DenseData;
    const vals = args.sparse_values as DenseData;
    const shape = args.output_shape as number[];
    if (!NUMERIC.has(vals.dtype)) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(shape)) return delegate(js, args, REASONS.wideDims);
    const nnz = ind.shape.length === 0 ? 1 : ind.shape[0];
    const indices = Array.from(ind.data as ArrayLike<number | bigint>, Number);
    return { output: scatter(ctx, indices, nnz, vals.data, vals.shape.length === 0, shape, vals.dtype, args.default_value as Scalar) };
  };
}
