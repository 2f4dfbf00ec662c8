import { delegate } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, SparseData, Values } from '@sparse/kernel-abi';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { valueBytes, sparse } from '../kernel.js';

/** sparse_split: a counting sort by piece in wasm; each piece is then one contiguous run of the output buffers. */
export function sparseSplit(ctx: WasmContext, js: KernelTable['sparse_split']): OpKernel<'sparse_split'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const numSplit = args.num_split as number;
    const vb = valueBytes(sp.dtype);
    if (!vb) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const { shape, dtype } = sp;
    const rank = shape.length;
    const axis = args.axis as number;
    const ax = axis < 0 ? axis + rank : axis;
    const n = sp.values.length;
    if (n * (rank * 24 + vb * 2 + 4) + numSplit * 4 + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const dim = shape[ax];
    const r = dim % numSplit;
    const q = (dim - r) / numSplit;
    const { heap } = ctx;
    ctx.begin();
    const idx = ctx.indicesOf(sp);
    const vals = ctx.valuesOf(sp);
    const ends = heap.zeros('i32', numSplit);
    const piece = heap.alloc(n * 4);
    const outIdx = heap.alloc(n * rank * 4);
    const outVals = heap.alloc(n * vb);
    ctx.call(`split_${vb}`, [idx, n, rank, ax, q, r, numSplit, ends, piece, vals, outIdx, outVals]);
    const endOf = heap.i32(ends, numSplit).slice();
    const allValues = heap.view(dtype, outVals, n);
    const output: SparseData[] = [];
    for (let p = 0, from = 0; p < numSplit; p++) {
      const to = endOf[p];
      const outShape = [...shape];
      outShape[ax] = p < r ? q + 1 : q;
      output.push(
        sparse(
          heap.readIndices(outIdx + from * rank * 4, (to - from) * rank),
          allValues.slice(from, to) as Values,
          outShape,
          dtype,
        ),
      );
      from = to;
    }
    return { output };
  };
}
