import type { DenseData, DType, Scalar, SparseData, Values } from '@sparse/kernel-abi';
import { allocValues, rowMajorStrides, sizeOf } from '@sparse/kernel-abi';
import type { WasmContext } from './wasm-context.js';

/**
 * The flat offset of each entry computed in wasm, the values written at them on the JS side, into an output
 * allocated there: a dense result filled and scattered in wasm memory would then be copied out whole, touching
 * every page of it twice, and a large output's cost is its pages (first-touch faults), not the scatter.
 */
export function scatter(
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
  ctx.begin();
  const idx = 'kind' in indices ? ctx.indicesOf(indices) : heap.putI32(indices);
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
