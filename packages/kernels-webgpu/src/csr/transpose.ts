/// <reference types="@webgpu/types" />
import { ENTRY, type WebGpuContext } from '../context.js';
import { recordRadixSort } from '../structural/radix.js';
import { moveValue } from '../structural/value-words.js';
import type { GlobalRows } from './global-rows.js';
import { lastAtMost } from './row-search.js';

/**
 * Each entry's key in the transpose, (matrix, column) as b·cols + c, its row, and a count per key: its global row
 * g by a binary search over the row pointers. p = [nnz, rows, cols, batch · rows].
 */
const KEYS = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> rowPtr: array<u32>;
@group(0) @binding(2) var<storage, read> col: array<u32>;
@group(0) @binding(3) var<storage, read_write> key: array<u32>;
@group(0) @binding(4) var<storage, read_write> rowOf: array<u32>;
@group(0) @binding(5) var<storage, read_write> counts: array<atomic<u32>>;
${lastAtMost('rowPtr')}
${ENTRY}
  if (i >= p[0]) { return; }
  let lo = lastAtMost(i, p[3]);
  let k = (lo / p[1]) * p[2] + col[i];
  key[i] = k;
  rowOf[i] = lo % p[1];
  atomicAdd(&counts[k], 1u);
}
`;

/**
 * The transpose's entries in sorted order: each one's row (its column there) and its value's `width` words. p = [nnz].
 */
const emit = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> perm: array<u32>;
@group(0) @binding(2) var<storage, read> rowOf: array<u32>;
@group(0) @binding(3) var<storage, read> val: array<u32>;
@group(0) @binding(4) var<storage, read_write> outCol: array<u32>;
@group(0) @binding(5) var<storage, read_write> outVal: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let e = perm[i];
  outCol[i] = rowOf[e];
  ${moveValue(width, 'outVal', 'i', 'val', 'e')}
}
`;

/** The transpose's buffers: nnz columns and values (m.width words each), and batch · cols row counts. */
export interface TransposeBuffers {
  col: GPUBuffer;
  val: GPUBuffer;
  counts: GPUBuffer;
}

/**
 * Records the transpose of each matrix of a batch (`m`: its rows over the batch, at least one entry): a stable
 * radix sort of the entries on (matrix, column), so entries of one column keep their stored order, by row, as the
 * JS kernel's counting sort places them. O(nnz) a pass, the digits of batch · cols passes. Buffers go to `owned`.
 */
export function recordCsrTranspose(
  ctx: WebGpuContext,
  m: GlobalRows,
  batch: number,
  owned: GPUBuffer[],
): TransposeBuffers {
  const nnz = m.col.length;
  const up = (data: Uint32Array) => {
    const buf = ctx.upload(data);
    owned.push(buf);
    return buf;
  };
  const make = (words: number) => {
    const buf = ctx.buffer(words * 4);
    owned.push(buf);
    return buf;
  };
  const key = make(nnz);
  const rowOf = make(nnz);
  const counts = make(batch * m.cols);
  ctx.dispatch({
    code: KEYS,
    buffers: [up(Uint32Array.of(nnz, m.rows, m.cols, batch * m.rows)), up(m.rowPtr), up(m.col), key, rowOf, counts],
    threads: nnz,
  });
  const sorted = recordRadixSort(ctx, key, nnz, batch * m.cols - 1, false, owned);
  const col = make(nnz);
  const val = make(nnz * m.width);
  ctx.dispatch({
    code: emit(m.width),
    buffers: [up(Uint32Array.of(nnz)), sorted.perm, rowOf, up(m.words), col, val],
    threads: nnz,
  });
  return { col, val, counts };
}
