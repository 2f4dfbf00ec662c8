/// <reference types="@webgpu/types" />
import type { CsrData } from '@sparse/kernel-abi';
import { ENTRY, type WebGpuContext } from '../context.js';

/**
 * A batch of CSR matrices × a batch of dense matrices, one invocation per output element (b, r, j) of op(a)·op(b):
 * it sums val[q] · op(b)[col[q], j] over the entries q of global row b·m + r (rowPtr over every matrix of the batch,
 * in one array: csrRows), in their order, reading op(b)[c, j] of matrix b at d[b·bs + c·sk + j·sj] (b row-major or
 * read transposed through the strides). The result goes to out[b·m·n + r·n + j], or to out[b·m·n + j·m + r] with
 * transpose_output; f32 rounds every product and every sum, in entry order, as the JS kernel does.
 * p = [total, m, n, sk, sj, bs, transposed].
 */
export const BATCHED_SPMM = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> rowPtr: array<u32>;
@group(0) @binding(2) var<storage, read> col: array<u32>;
@group(0) @binding(3) var<storage, read> val: array<f32>;
@group(0) @binding(4) var<storage, read> d: array<f32>;
@group(0) @binding(5) var<storage, read_write> out: array<f32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let m = p[1];
  let n = p[2];
  let b = i / (m * n);
  let at = i % (m * n);
  var r: u32;
  var j: u32;
  if (p[6] == 0u) { r = at / n; j = at % n; } else { j = at / m; r = at % m; }
  let base = b * p[5] + j * p[4];
  let sk = p[3];
  let row = b * m + r;
  let end = rowPtr[row + 1u];
  var s = 0.0;
  for (var q = rowPtr[row]; q < end; q++) {
    s = s + val[q] * d[base + col[q] * sk];
  }
  out[i] = s;
}
`;

/** Rows of every matrix of a batch as one CSR: global row b·rows + r; col and val in the order the rows hold them. */
export interface BatchCsr {
  rowPtr: Uint32Array;
  col: Uint32Array;
  val: Float32Array;
}

/**
 * The entries of CSR `a` ([batch,] rows, cols) grouped by output row of op(a): a's own row pointers offset by each
 * matrix's first entry (no copy of the entries), or, transposed, a counting sort of each matrix's entries on their
 * column, walking a's rows in order, so each row of the transpose keeps the order the JS kernel adds its entries
 * in (by a's row, then by position). Linear: O(nnz + batch · (rows + cols)).
 */
export function csrRows(a: CsrData, batch: number, rows: number, cols: number, transposed: boolean): BatchCsr {
  const nnz = a.colIndices.length;
  const val = a.values as Float32Array;
  if (!transposed) {
    const rowPtr = new Uint32Array(batch * rows + 1);
    for (let b = 0; b < batch; b++) {
      const base = a.batchPointers[b];
      for (let r = 0; r < rows; r++) rowPtr[b * rows + r] = base + a.rowPointers[b * (rows + 1) + r];
    }
    rowPtr[batch * rows] = a.batchPointers[batch] ?? nnz;
    const col = new Uint32Array(a.colIndices.buffer, a.colIndices.byteOffset, nnz);
    return { rowPtr, col, val };
  }
  const rowPtr = new Uint32Array(batch * cols + 1);
  const col = new Uint32Array(nnz);
  const out = new Float32Array(nnz);
  const next = new Uint32Array(cols);
  for (let b = 0; b < batch; b++) {
    const base = a.batchPointers[b];
    const end = a.batchPointers[b + 1];
    const first = b * cols;
    for (let k = base; k < end; k++) rowPtr[first + a.colIndices[k] + 1]++;
    rowPtr[first] = base;
    for (let c = 0; c < cols; c++) {
      next[c] = rowPtr[first + c];
      rowPtr[first + c + 1] += rowPtr[first + c];
    }
    for (let r = 0; r < rows; r++) {
      const p = b * (rows + 1) + r;
      for (let k = base + a.rowPointers[p]; k < base + a.rowPointers[p + 1]; k++) {
        const at = next[a.colIndices[k]]++;
        col[at] = r;
        out[at] = val[k];
      }
    }
  }
  return { rowPtr, col, val: out };
}

export interface BatchedSpmm {
  csr: BatchCsr;
  d: GPUBuffer;
  batch: number;
  m: number;
  n: number;
  sk: number;
  sj: number;
  /** Elements of one dense matrix of the batch. */
  bs: number;
  transposed: boolean;
}

/** Records the batched SpMM pass; returns its output buffer, then the buffers it uploaded (the caller releases all). */
export function recordBatchedSpmm(ctx: WebGpuContext, s: BatchedSpmm): GPUBuffer[] {
  const total = s.batch * s.m * s.n;
  const out = ctx.buffer(total * 4);
  const uploaded = [
    ctx.upload(Uint32Array.of(total, s.m, s.n, s.sk, s.sj, s.bs, s.transposed ? 1 : 0)),
    ctx.upload(s.csr.rowPtr),
    ctx.upload(s.csr.col),
    ctx.upload(s.csr.val),
  ];
  ctx.dispatch({ code: BATCHED_SPMM, buffers: [...uploaded, s.d, out], threads: total });
  return [out, ...uploaded];
}
