import { delegate } from '@sparse/kernel-abi';
import type { DenseData, KernelTable, OpKernel, Scalar, SparseData } from '@sparse/kernel-abi';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { valueBytes, sparse } from '../kernel.js';

/** sparse_fill_empty_rows: a counting sort by row in wasm, in two passes (plan, then scatter into exact buffers). */
export function sparseFillEmptyRows(
  ctx: WasmContext,
  js: KernelTable['sparse_fill_empty_rows'],
): OpKernel<'sparse_fill_empty_rows'> {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const vb = valueBytes(sp.dtype);
    if (!vb) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const { shape, dtype } = sp;
    const rank = shape.length;
    const rows = shape[0];
    const n = sp.values.length;
    const inBytes = n * (rank * 12 + vb) + rows * 5 + 128;
    if (inBytes + (n + rows) * (rank * 12 + vb) > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    ctx.begin();
    const idx = ctx.indicesOf(sp);
    const vals = ctx.valuesOf(sp);
    const fill = ctx.heap.putScalar(dtype, args.default_value as Scalar);
    const start = heap.zeros('i32', rows);
    const empty = heap.alloc(rows);
    const total = ctx.call('fill_rows_plan', [idx, n, rank, rows, start, empty]);
    const outIdx = heap.alloc(total * rank * 4);
    const outVals = heap.alloc(total * vb);
    ctx.call(`fill_rows_${vb}`, [idx, n, rank, rows, start, empty, vals, fill, outIdx, outVals]);
    const emptyRows = new Uint8Array(ctx.exports.memory.buffer, empty, rows).slice();
    return {
      output: sparse(
        ctx.heap.readIndices(outIdx, total * rank),
        heap.readValues(dtype, outVals, total),
        [...shape],
        dtype,
      ),
      empty_row_indicator: { kind: 'dense', data: emptyRows, shape: [rows], dtype: 'bool' } satisfies DenseData,
    };
  };
}
