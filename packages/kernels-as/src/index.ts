import { kernels as jsKernels } from '@sparse/kernels-js';
import { FAMILY_OPS } from './generated/family-ops.js';
import { DELEGATED_OPS } from './delegation.js';
import { delegate } from './delegate.js';
import { instantiateKernels } from './wasm-module.js';
import { WasmContext } from './wasm-context.js';
import { cwiseKernel } from './families/cwise.js';
import { mapKernel } from './families/map.js';
import { mergeKernel } from './families/merge.js';
import { reduceKernel } from './families/reduce.js';
import { sparseTensorDenseMatmul } from './kernels/sparse_tensor_dense_matmul.js';
import { sparseToDense, sparseTensorToDense } from './kernels/scatter-to-dense.js';
import { sparseReorder } from './kernels/sparse_reorder.js';
import { sparseTranspose } from './kernels/sparse_transpose.js';
import { sparseConcat } from './kernels/sparse_concat.js';
import { fromDense } from './kernels/from_dense.js';
import { sparseSoftmax } from './kernels/sparse_softmax.js';
import { sparseSegmentSum } from './kernels/sparse_segment_sum.js';
import { sparseReshape } from './kernels/sparse_reshape.js';
import { sparseExpandDims } from './kernels/sparse_expand_dims.js';
import { sparseSlice } from './kernels/sparse_slice.js';
import { sparseSplit } from './kernels/sparse_split.js';
import { sparseRetain } from './kernels/sparse_retain.js';
import { sparseResetShape } from './kernels/sparse_reset_shape.js';
import { sparseFillEmptyRows } from './kernels/sparse_fill_empty_rows.js';
import { sparseToIndicator } from './kernels/sparse_to_indicator.js';
import { sparseMerge } from './kernels/sparse_merge.js';

import type { SparseData } from '@sparse/kernel-abi';
export { DELEGATED_OPS };

import type { Kernel, JsKernel, KernelFactory } from './kernels/kernel.js';

/** The hand-written wasm kernels, by op id. */
export const HAND_WRITTEN: Record<string, KernelFactory> = {
  sparse_tensor_dense_matmul: sparseTensorDenseMatmul,
  sparse_tensor_to_dense: sparseTensorToDense,
  sparse_to_dense: sparseToDense,
  sparse_reorder: sparseReorder,
  sparse_transpose: sparseTranspose,
  sparse_concat: sparseConcat,
  from_dense: fromDense,
  sparse_softmax: sparseSoftmax,
  sparse_segment_sum: sparseSegmentSum,
  sparse_reshape: sparseReshape,
  sparse_expand_dims: sparseExpandDims,
  sparse_slice: sparseSlice,
  sparse_split: sparseSplit,
  sparse_retain: sparseRetain,
  sparse_reset_shape: sparseResetShape,
  sparse_fill_empty_rows: sparseFillEmptyRows,
  sparse_to_indicator: sparseToIndicator,
  sparse_merge: sparseMerge,
};

const FAMILY_DRIVERS = {
  cwise: cwiseKernel,
  merge: mergeKernel,
  reduce: reduceKernel,
  map: (ctx: WasmContext, op: string, meta: never) => mapKernel(ctx, op, meta),
};

export interface WasmBackend {
  name: 'wasm';
  kernels: Record<string, Kernel>;
  /** The bytes of wasm memory in use: grows to the largest call, then stays (it is reused). */
  memoryBytes(): number;
  /** The runtime's index check, in wasm (see WasmContext.indicesValid). */
  indicesValid(st: SparseData): boolean;
}

/**
 * A wasm backend: one module instance with its own heap. Every op is here: in wasm (the family ops from their
 * spec expressions, the rest by hand, one file per op under kernels/), or declared in DELEGATED_OPS and run on
 * the JS kernels.
 */
export async function createWasmBackend(wasm?: BufferSource | URL | string): Promise<WasmBackend> {
  const ctx = new WasmContext(await instantiateKernels(wasm));
  const kernels: Record<string, Kernel> = {};
  for (const [op, js] of Object.entries(jsKernels) as [string, JsKernel][]) {
    const family = FAMILY_OPS[op];
    if (family)
      kernels[op] = (
        FAMILY_DRIVERS[family.family] as (c: WasmContext, o: string, m: typeof family, j: JsKernel) => Kernel
      )(ctx, op, family, js);
    else if (DELEGATED_OPS[op]) kernels[op] = (args) => delegate(js, args, DELEGATED_OPS[op]);
    else if (HAND_WRITTEN[op]) kernels[op] = HAND_WRITTEN[op](ctx, js);
  }
  return { name: 'wasm', kernels, memoryBytes: () => ctx.heap.bytes, indicesValid: (st) => ctx.indicesValid(st) };
}
