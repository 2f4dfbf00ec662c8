import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import { concatShape } from '@sparse/kernels-js/internals';
import { bytesPerElement } from '../heap.js';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { delegate } from '../delegate.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { isNumeric, rowsOf, sparse } from '../kernel.js';
import { sortGather, sortBytes } from '../sort-gather.js';

/** sparse_concat: the inputs copied into one buffer and moved along the axis in wasm, then the shared sort. */
export function sparseConcat(ctx: WasmContext, js: KernelTable['sparse_concat']): OpKernel<'sparse_concat'> {
  return (args) => {
    const inputs = args.sp_inputs as SparseData[];
    const first = inputs[0];
    const { dtype } = first;
    if (!isNumeric(dtype)) return delegate(js, args, REASONS.notNumeric);
    const rank = first.shape.length;
    if (inputs.length === 1) {
      // As TensorFlow (and the JS kernel): a single input comes back as it is — nothing to compute.
      return { output: sparse(first.indices.slice(), first.values.slice(), [...first.shape], dtype) };
    }
    const axis = args.axis as number;
    const ax = axis < 0 ? axis + rank : axis;
    const shape = concatShape(inputs, ax, args.expand_nonconcat_dim as boolean);
    if (!fitsI32(shape) || !inputs.every((s) => fitsI32(s.shape))) return delegate(js, args, REASONS.wideDims);
    let total = 0;
    for (const s of inputs) total += s.values.length;
    const size = bytesPerElement(dtype);
    if (total * (rank * 8 + size) + sortBytes(total, rank, size) > WASM_BYTES)
      return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    // Every input's indices as f64 one after another, then narrowed to i32 in place at once.
    const idx = heap.alloc(total * rank * 8);
    const vals = heap.alloc(total * size);
    let k = 0;
    for (const s of inputs) {
      const n = s.values.length;
      (heap.view('float64', idx + k * rank * 8, n * rank) as Float64Array).set(rowsOf(s));
      heap.view(dtype, vals + k * size, n).set(s.values as never);
      k += n;
    }
    ctx.call('indices_to_i32', [idx, total * rank, idx]);
    k = 0;
    let offset = 0;
    for (const s of inputs) {
      const n = s.values.length;
      ctx.call('shift_col', [idx + k * rank * 4, n, rank, ax, offset]);
      k += n;
      offset += s.shape[ax];
    }
    return { output: sortGather(ctx, idx, vals, total, shape, dtype) };
  };
}
