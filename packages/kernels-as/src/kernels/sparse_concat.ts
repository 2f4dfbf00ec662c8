import { concatShape, delegate } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import { bytesPerElement } from '../heap.js';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { isNumeric, sparse } from '../kernel.js';
import { sortGather, sortBytes } from '../sort-gather.js';

// Rows a matrix may be indexed by whatever its entries (256 KiB of pointers).
const INDEXED_ROWS = 1 << 16;

/**
 * sparse_concat: the inputs copied into one buffer and moved along the axis in wasm, then the shared sort; matrices in
 * row-major order skip the sort (see below).
 */
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
    ctx.begin();
    const parts = inputs.map((s) => ({ s, idx: ctx.indicesOf(s), vals: ctx.valuesOf(s) }));
    const out = heap.alloc(total * rank * 4);
    const outVals = heap.alloc(total * size);
    // Matrices in row-major order: along either axis, the canonical result is a linear interleaving (columns) or
    // the inputs one after another (rows), which the stable sort would only find again. Their row pointers only
    // where there are not far more rows than entries (else they would pass the entries' own size, uncounted by the
    // byte budget).
    const indexed = rank === 2 && inputs.every((s) => s.shape[0] <= Math.max(s.values.length, INDEXED_ROWS));
    const rows = indexed ? parts.map((p) => ctx.rowIndex(p.s, p.idx)) : undefined;
    if (rows?.every((r) => r.canonical)) {
      if (ax === 1) {
        const table = heap.alloc(parts.length * 32);
        const t = heap.i32(table, parts.length * 8);
        let offset = 0;
        parts.forEach((p, j) => {
          t.set([p.idx, p.vals, rows[j].ptr, offset, p.s.shape[0]], j * 8);
          offset += p.s.shape[1];
        });
        ctx.call(`concat_cols_${size}`, [table, parts.length, shape[0], out, outVals]);
      } else {
        append(ctx, parts, rank, ax, size, out, outVals);
      }
      return {
        output: sparse(heap.readIndices(out, total * rank), heap.readValues(dtype, outVals, total), shape, dtype),
      };
    }
    append(ctx, parts, rank, ax, size, out, outVals);
    return { output: sortGather(ctx, out, outVals, total, shape, dtype) };
  };
}

/** Every input's i32 rows and values one after another, each moved along the axis by the sizes before it. */
function append(
  ctx: WasmContext,
  parts: { s: SparseData; idx: number; vals: number }[],
  rank: number,
  ax: number,
  size: number,
  out: number,
  outVals: number,
): void {
  const mem = ctx.heap.u8(0, ctx.heap.bytes);
  let k = 0;
  let offset = 0;
  for (const { s, idx, vals } of parts) {
    const n = s.values.length;
    mem.copyWithin(out + k * rank * 4, idx, idx + n * rank * 4);
    mem.copyWithin(outVals + k * size, vals, vals + n * size);
    ctx.call('shift_col', [out + k * rank * 4, n, rank, ax, offset]);
    k += n;
    offset += s.shape[ax];
  }
}
