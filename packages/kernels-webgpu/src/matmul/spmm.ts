/// <reference types="@webgpu/types" />
import type { SparseData } from '@sparse/kernel-abi';
import { ENTRY, type WebGpuContext, type Words } from '../context.js';

/** The dtypes the matmul kernels compute on the GPU, and their WGSL scalar type. */
export type GpuDType = 'float32' | 'int32';
const WGSL_TYPE: Record<GpuDType, string> = { float32: 'f32', int32: 'i32' };

/** The largest dim, offset or count the kernels index with (u32 on the GPU; a dense dim past it is delegated). */
export const INT32_MAX = 0x7fffffff;

/**
 * Sparse × dense, one invocation per output element (r, j) of the [rows × n] product S·D: it sums
 * val[q] · D[col[q], j] over row r's entries q in rowPtr[r] .. rowPtr[r + 1] (CSR built on the host, csrOf), in
 * their order, reading D[c, j] at d[c·sk + j·sj] (D row-major, or D's transpose row-major: the strides say).
 * The result goes to out[r·n + j], or to out[j·rows + r] when `p[4]` says to write it transposed; the threads run
 * along the output's rows either way, so neighbouring threads write neighbouring elements. f32 rounds every product
 * and every sum, as the JS kernel does; i32 wraps both (two's complement), as TensorFlow's int32 does.
 * p = [rows, n, sk, sj, transposed, rows · n].
 */
export function spmmSource(dtype: GpuDType): string {
  const t = WGSL_TYPE[dtype];
  return `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> rowPtr: array<u32>;
@group(0) @binding(2) var<storage, read> col: array<u32>;
@group(0) @binding(3) var<storage, read> val: array<${t}>;
@group(0) @binding(4) var<storage, read> d: array<${t}>;
@group(0) @binding(5) var<storage, read_write> out: array<${t}>;
${ENTRY}
  if (i >= p[5]) { return; }
  let rows = p[0];
  let n = p[1];
  var r: u32;
  var j: u32;
  if (p[4] == 0u) { r = i / n; j = i % n; } else { j = i / rows; r = i % rows; }
  let sk = p[2];
  let sj = p[3] * j;
  let end = rowPtr[r + 1u];
  var s = ${t}(0);
  for (var q = rowPtr[r]; q < end; q++) {
    s = s + val[q] * d[col[q] * sk + sj];
  }
  out[i] = s;
}
`;
}

/**
 * For each stored entry e, the dot product of row row(e) of G and row col(e) of D, over `width` columns:
 * G[r, j] at g[r·gr + j·gj], D[c, j] at d[c·dc + j·dj]. One invocation per entry; f32 rounds every product and
 * every sum, in column order, as the JS kernel's sampledProducts does. rc holds (row, col) pairs, e's at 2e.
 * p = [nnz, width, gr, gj, dc, dj].
 */
export function sampledSource(dtype: GpuDType): string {
  const t = WGSL_TYPE[dtype];
  return `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> rc: array<u32>;
@group(0) @binding(2) var<storage, read> g: array<${t}>;
@group(0) @binding(3) var<storage, read> d: array<${t}>;
@group(0) @binding(4) var<storage, read_write> out: array<${t}>;
${ENTRY}
  if (i >= p[0]) { return; }
  let width = p[1];
  let gp = rc[2u * i] * p[2];
  let dp = rc[2u * i + 1u] * p[4];
  var s = ${t}(0);
  for (var j = 0u; j < width; j++) {
    s = s + g[gp + j * p[3]] * d[dp + j * p[5]];
  }
  out[i] = s;
}
`;
}

/** A sparse matrix's entries grouped by row, as the SpMM kernel reads them. */
export interface Csr {
  /** rows + 1 offsets: row r's entries are rowPtr[r] .. rowPtr[r + 1]. */
  rowPtr: Uint32Array;
  col: Uint32Array;
  /** The values in the same order: Float32Array or Int32Array, as the sparse operand's. */
  val: Words;
}

/**
 * The entries of a rank-2 sparse matrix grouped by coordinate `rowDim` (0: its rows; 1: its columns, which is CSR
 * of its transpose), `rows` being that coordinate's extent, by a counting sort: the row offsets, each entry's column
 * in row order, where each entry goes (`to`) and the longest row. Linear, O(nnz + rows), and stable: each row keeps
 * its entries in their order, which is the order the JS kernel adds them in, and any order of the input is fine
 * (TensorFlow does not require SpMM's sparse operand to be ordered); repeated indices stay separate entries and add
 * up. The values are not read (they may be on the GPU).
 */
export function rowOrder(sp: SparseData, rowDim: 0 | 1, rows: number) {
  const nnz = sp.values.length;
  const idx = sp.indices;
  const rowPtr = new Uint32Array(rows + 1);
  for (let e = 0; e < nnz; e++) rowPtr[idx[2 * e + rowDim] + 1]++;
  for (let r = 0; r < rows; r++) rowPtr[r + 1] += rowPtr[r];
  const fill = rowPtr.slice(0, rows);
  const col = new Uint32Array(nnz);
  const to = new Uint32Array(nnz);
  let longest = 0;
  for (let r = 0; r < rows; r++) longest = Math.max(longest, rowPtr[r + 1] - rowPtr[r]);
  for (let e = 0; e < nnz; e++) {
    const q = fill[idx[2 * e + rowDim]]++;
    col[q] = idx[2 * e + 1 - rowDim];
    to[e] = q;
  }
  return { rowPtr, col, to, longest };
}

/** CSR of a rank-2 sparse matrix by rowOrder, its values laid out on the host. */
export function csrOf(sp: SparseData, rowDim: 0 | 1, rows: number): Csr {
  const { rowPtr, col, to } = rowOrder(sp, rowDim, rows);
  const src = sp.values as Float32Array | Int32Array;
  const val = src instanceof Float32Array ? new Float32Array(to.length) : new Int32Array(to.length);
  for (let e = 0; e < to.length; e++) val[to[e]] = src[e];
  return { rowPtr, col, val };
}

/** The strides [along k, along n] of a dense [k × n] operand read from `data` ([rows × cols] row-major), transposed or not. */
export function strides(cols: number, transposed: boolean): [number, number] {
  return transposed ? [1, cols] : [cols, 1];
}

export interface SpmmPass {
  csr: Csr;
  /** The dense operand on the GPU, read at d[c·sk + j·sj]. */
  d: GPUBuffer;
  sk: number;
  sj: number;
  rows: number;
  n: number;
  /** Write the [rows × n] product transposed, as [n × rows]. */
  transposed: boolean;
  dtype: GpuDType;
}

/**
 * Records the SpMM pass (nothing runs until the call's one read) and returns its output buffer followed by the
 * buffers it uploaded, for the caller to release once read.
 */
export function recordSpmm(ctx: WebGpuContext, s: SpmmPass): GPUBuffer[] {
  const total = s.rows * s.n;
  const out = ctx.buffer(total * 4);
  const uploaded = [
    ctx.upload(Uint32Array.of(s.rows, s.n, s.sk, s.sj, s.transposed ? 1 : 0, total)),
    ctx.upload(s.csr.rowPtr),
    ctx.upload(s.csr.col),
    ctx.upload(s.csr.val),
  ];
  ctx.dispatch({ code: spmmSource(s.dtype), buffers: [...uploaded, s.d, out], threads: total });
  return [out, ...uploaded];
}
