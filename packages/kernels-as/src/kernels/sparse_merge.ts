import { delegate } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { valueBytes, sparse } from '../kernel.js';
import { sortGather, sortBytes } from '../sort-gather.js';

/**
 * sparse_merge: the merged rows built in wasm; unless already_sorted, put in canonical order by the shared wasm
 * sort (stable, as the JS kernel's), with their values.
 */
export function sparseMerge(ctx: WasmContext, js: KernelTable['sparse_merge']): OpKernel<'sparse_merge'> {
  return (args) => {
    const ids = Array.isArray(args.sp_ids) ? (args.sp_ids as SparseData[]) : [args.sp_ids as SparseData];
    const vocab = Array.isArray(args.vocab_size) ? (args.vocab_size as number[]) : [args.vocab_size as number];
    const spValues = args.sp_values as SparseData;
    const sorted = args.already_sorted as boolean;
    const { dtype } = spValues;
    const vb = valueBytes(dtype);
    if (!vb) return delegate(js, args, REASONS.notNumeric);
    const first = ids[0];
    const inRank = first.shape.length;
    const m = ids.length;
    const outRank = inRank - 1 + m;
    const outShape = [...first.shape.slice(0, inRank - 1), ...vocab];
    if (!fitsI32(outShape)) return delegate(js, args, REASONS.wideDims);
    const idDtype = first.dtype;
    if (ids.some((st) => st.dtype !== idDtype)) return delegate(js, args, REASONS.mixedIds);
    const ib = idDtype === 'int64' ? 8 : 4;
    const n = first.values.length;
    const sortExtra = sorted ? 0 : n * vb + sortBytes(n, outRank, vb);
    if (n * (inRank * 12 + m * ib + outRank * 4) + sortExtra + m * 4 + 128 > WASM_BYTES)
      return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    ctx.begin();
    const idx = ctx.indicesOf(first); // the last column is discarded (and not bounded): it may saturate, unread
    const table = heap.putI32(ids.map((st) => ctx.valuesOf(st)));
    const rows = heap.alloc(n * outRank * 4);
    ctx.call(`merge_rows_${ib}`, [idx, n, inRank, table, m, rows]);
    if (sorted)
      return { output: sparse(ctx.heap.readIndices(rows, n * outRank), spValues.values.slice(), outShape, dtype) };
    const vals = ctx.valuesOf(spValues);
    return { output: sortGather(ctx, rows, vals, n, outShape, dtype) };
  };
}
