import { delegate } from '@sparse/kernel-abi';
import type { DenseData, KernelTable, OpKernel } from '@sparse/kernel-abi';
import { bytesPerElement } from '../heap.js';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { isNumeric, sparse } from '../kernel.js';

/** from_dense: a count of the non-zeros (SIMD), then one pass writing their index rows and values, in wasm. */
export function fromDense(ctx: WasmContext, js: KernelTable['from_dense']): OpKernel<'from_dense'> {
  return (args) => {
    const t = args.tensor as DenseData;
    const { dtype, shape } = t;
    if (!isNumeric(dtype)) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(shape)) return delegate(js, args, REASONS.wideDims);
    const size = t.data.length;
    const rank = shape.length;
    const bpe = bytesPerElement(dtype);
    if (size * bpe > WASM_BYTES / 2) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    const data = heap.putValues(dtype, t.data);
    const nnz = ctx.call(`count_nonzero_${dtype}`, [data, size]);
    if (nnz * (rank * 4 + bpe) > WASM_BYTES / 2) return delegate(js, args, REASONS.tooBig);
    const sh = heap.putI32(shape);
    const counter = heap.zeros('i32', Math.max(rank, 1));
    const outIdx = heap.alloc(nnz * rank * 4);
    const outVals = heap.alloc(nnz * bpe);
    ctx.call(`from_dense_${dtype}`, [data, sh, rank, counter, outIdx, outVals]);
    return {
      output: sparse(heap.readIndices(outIdx, nnz * rank), heap.readValues(dtype, outVals, nnz), [...shape], dtype),
    };
  };
}
