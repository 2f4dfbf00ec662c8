import type { CsrData } from '@sparse/kernel-abi';
import { bytesPerElement } from './heap.js';
import type { WasmContext } from './wasm-context.js';

/** A CSR matrix or batch in wasm memory: pointers to its arrays and its dims. */
export interface CsrOperand {
  rp: number;
  ci: number;
  vals: number;
  bp: number;
  batch: number;
  rows: number;
  cols: number;
  nnz: number;
}

/** [batch, rows, cols] of a CSR matrix (batch 1) or a batch of them, or of its dense or sparse form. */
export function csrDims(m: { shape: readonly number[] }): [number, number, number] {
  const s = m.shape;
  return s.length === 3 ? [s[0], s[1], s[2]] : [1, s[0], s[1]];
}

/**
 * `m` in wasm memory (its prepared arrays where it has them), transposed there when `transpose` is set: each matrix
 * of the batch by a counting sort on its columns (csr_transpose_4/8), rows and columns then swapped. Call
 * `ctx.begin()` first.
 */
export function csrOperand(ctx: WasmContext, m: CsrData, transpose = false): CsrOperand {
  const [batch, rows, cols] = csrDims(m);
  const nnz = m.colIndices.length;
  const op: CsrOperand = {
    rp: ctx.csrArrayOf(m.rowPointers),
    ci: ctx.csrArrayOf(m.colIndices),
    vals: ctx.csrArrayOf(m.values as Float32Array | Float64Array),
    bp: ctx.csrArrayOf(m.batchPointers),
    batch,
    rows,
    cols,
    nnz,
  };
  if (!transpose) return op;
  const { heap } = ctx;
  const size = bytesPerElement(m.dtype);
  const rp = heap.alloc(batch * (cols + 1) * 4);
  const ci = heap.alloc(nnz * 4);
  const vals = heap.alloc(nnz * size);
  const fill = heap.alloc(cols * 4);
  ctx.call(size === 4 ? 'csr_transpose_4' : 'csr_transpose_8', [
    op.rp,
    op.ci,
    op.vals,
    op.bp,
    batch,
    rows,
    cols,
    rp,
    ci,
    vals,
    fill,
  ]);
  return { ...op, rp, ci, vals, rows: cols, cols: rows };
}
