/// <reference types="@webgpu/types" />
import { ENTRY, type WebGpuContext } from '../context.js';
import { recordRadixSort, sortBytes } from '../structural/radix.js';
import { recordScan } from '../structural/scan.js';
import type { GlobalRows } from './global-rows.js';
import { lastAtMost } from './row-search.js';

/**
 * SpGEMM op(a) · op(b) by expand, sort, compress, so that each output value is the sum of its products in the
 * order the JS kernel (Gustavson's, row by row) adds them: a's entries in row order, then b's in row order.
 *
 * - expand: one thread a product t (products numbered in that order): its a entry by a binary search over the
 *   entries' first products, then its column, its output row and its value (one f32 or i32 multiply), to memory.
 * - a stable radix sort on the column, then a stable one on the output row (gathered through the first
 *   permutation): products of one (row, column) end up side by side, in expansion order, sorted by column in a row.
 * - heads of runs of one (row, column) flagged and scanned: each run is an output entry; its first thread writes
 *   its column and start, and counts it into its row.
 * - one thread an output entry adds its run's products in order (read from memory: no multiply is fused into an
 *   add), f32 rounding every sum as the JS kernel's Math.fround does.
 *
 * O(products · passes) work, passes = the digits of the column and of the row (4 bits each).
 */

/** The host's side of the plan: each entry of op(a)'s products, and the sizes the GPU buffers take. */
export interface SpgemmPlan {
  /** Products formed (the expansion's length). */
  products: number;
  /** A bound on the output entries: each output row's products, at most op(b)'s columns. */
  bound: number;
  /** off[e]: the first product of a's entry e; off[nnz(a)] = products. */
  off: Uint32Array;
  /** Per a entry: [first entry of op(b)'s row it selects, its global output row, its value bits]. */
  ent: Uint32Array;
}

/**
 * Where each entry of op(a) puts its products, in one pass over op(a)'s entries: O(nnz(a) + batch · rows). Returns
 * undefined where the products pass `limit` (no buffer could hold them).
 */
export function planSpgemm(a: GlobalRows, b: GlobalRows, batch: number, limit: number): SpgemmPlan | undefined {
  const { rows: m, cols: k } = a;
  const n = b.cols;
  const nnz = a.col.length;
  const off = new Uint32Array(nnz + 1);
  const ent = new Uint32Array(nnz * 3);
  let products = 0;
  let bound = 0;
  for (let g = 0; g < batch * m; g++) {
    const first = Math.floor(g / m) * k;
    const rowStart = products;
    for (let e = a.rowPtr[g]; e < a.rowPtr[g + 1]; e++) {
      const r = first + a.col[e];
      const start = b.rowPtr[r];
      off[e] = products;
      ent[3 * e] = start;
      ent[3 * e + 1] = g;
      ent[3 * e + 2] = a.words[e];
      products += b.rowPtr[r + 1] - start;
    }
    if (products > limit) return undefined;
    bound += Math.min(products - rowStart, n);
  }
  off[nnz] = products;
  return { products, bound, off, ent };
}

/** The bytes the GPU binds for a plan (none may pass the device's binding limit). */
export function spgemmBytes(plan: SpgemmPlan, a: GlobalRows, b: GlobalRows, batch: number): number[] {
  return [
    plan.off.byteLength,
    plan.ent.byteLength,
    b.col.byteLength,
    sortBytes(plan.products),
    (plan.bound + 1) * 4,
    batch * a.rows * 4,
  ];
}

const MUL = {
  float32: 'bitcast<u32>(bitcast<f32>(x) * bitcast<f32>(y))',
  int32: 'bitcast<u32>(bitcast<i32>(x) * bitcast<i32>(y))',
};
const ACC = { float32: 'f32', int32: 'i32' };

/** Pass expand, one thread a product (see above). p = [products, nnz(a)]. */
const expandSource = (dtype: 'float32' | 'int32') => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> off: array<u32>;
@group(0) @binding(2) var<storage, read> ent: array<u32>;
@group(0) @binding(3) var<storage, read> bCol: array<u32>;
@group(0) @binding(4) var<storage, read> bVal: array<u32>;
@group(0) @binding(5) var<storage, read_write> colKey: array<u32>;
@group(0) @binding(6) var<storage, read_write> rowKey: array<u32>;
@group(0) @binding(7) var<storage, read_write> prod: array<u32>;
${lastAtMost('off')}
${ENTRY}
  if (i >= p[0]) { return; }
  // The a entry whose products hold product i.
  let lo = lastAtMost(i, p[1]);
  let g = ent[3u * lo] + (i - off[lo]);
  colKey[i] = bCol[g];
  rowKey[i] = ent[3u * lo + 1u];
  let x = ent[3u * lo + 2u];
  let y = bVal[g];
  prod[i] = ${MUL[dtype]};
}
`;

/** Each product's row, in the order of the column sort. p = [products]. */
const GATHER = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> rowKey: array<u32>;
@group(0) @binding(2) var<storage, read> perm: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  out[i] = rowKey[perm[i]];
}
`;

/** Whether sorted product i starts a run of one (row, column): rows are keys2, columns keys1 through perm2. */
const IS_HEAD = `fn isHead(i: u32) -> bool {
  return i == 0u || keys2[i] != keys2[i - 1u] || keys1[perm2[i]] != keys1[perm2[i - 1u]];
}`;

/** Flags the heads of runs (1, else 0), for the scan. p = [products]. */
const HEADS = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> perm2: array<u32>;
@group(0) @binding(2) var<storage, read> keys1: array<u32>;
@group(0) @binding(3) var<storage, read> keys2: array<u32>;
@group(0) @binding(4) var<storage, read_write> head: array<u32>;
${IS_HEAD}
${ENTRY}
  if (i >= p[0]) { return; }
  head[i] = select(0u, 1u, isHead(i));
}
`;

/**
 * Each run's head (its output entry s = the heads before it) writes the run's start and column and counts itself
 * into its row; the last product writes start[runs] = products, the end of the last run. p = [products].
 */
const SEGMENTS = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> perm2: array<u32>;
@group(0) @binding(2) var<storage, read> keys1: array<u32>;
@group(0) @binding(3) var<storage, read> keys2: array<u32>;
@group(0) @binding(4) var<storage, read> before: array<u32>;
@group(0) @binding(5) var<storage, read_write> start: array<u32>;
@group(0) @binding(6) var<storage, read_write> outCol: array<u32>;
@group(0) @binding(7) var<storage, read_write> rowCount: array<atomic<u32>>;
${IS_HEAD}
${ENTRY}
  let n = p[0];
  if (i >= n) { return; }
  let h = isHead(i);
  let s = before[i];
  if (h) {
    start[s] = i;
    outCol[s] = keys1[perm2[i]];
    atomicAdd(&rowCount[keys2[i]], 1u);
  }
  if (i == n - 1u) { start[s + select(0u, 1u, h)] = n; }
}
`;

/**
 * One thread an output entry s: the sum of its run's products in expansion order (a slot past the runs has an end
 * not past its start). p = [bound].
 */
const sumSource = (dtype: 'float32' | 'int32') => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> start: array<u32>;
@group(0) @binding(2) var<storage, read> perm1: array<u32>;
@group(0) @binding(3) var<storage, read> perm2: array<u32>;
@group(0) @binding(4) var<storage, read> prod: array<u32>;
@group(0) @binding(5) var<storage, read_write> outVal: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let first = start[i];
  let end = start[i + 1u];
  if (end <= first) { return; }
  var acc = bitcast<${ACC[dtype]}>(prod[perm1[perm2[first]]]);
  for (var q = first + 1u; q < end; q++) {
    acc = acc + bitcast<${ACC[dtype]}>(prod[perm1[perm2[q]]]);
  }
  outVal[i] = bitcast<u32>(acc);
}
`;

/** The output's buffers: `bound` columns and values (the first `runs` of them written), a count per global row. */
export interface SpgemmBuffers {
  col: GPUBuffer;
  val: GPUBuffer;
  rowCount: GPUBuffer;
}

/**
 * Records the passes of op(a) · op(b) for a plan with products (see above); the buffers it takes go to `owned`,
 * for the caller to release once read.
 */
export function recordSpgemm(
  ctx: WebGpuContext,
  dtype: 'float32' | 'int32',
  plan: SpgemmPlan,
  a: GlobalRows,
  b: GlobalRows,
  batch: number,
  owned: GPUBuffer[],
): SpgemmBuffers {
  const P = plan.products;
  const rows = batch * a.rows;
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
  const pP = up(Uint32Array.of(P));
  const colKey = make(P);
  const rowKey = make(P);
  const prod = make(P);
  ctx.dispatch({
    code: expandSource(dtype),
    buffers: [
      up(Uint32Array.of(P, a.col.length)),
      up(plan.off),
      up(plan.ent),
      up(b.col),
      up(b.words),
      colKey,
      rowKey,
      prod,
    ],
    threads: P,
  });
  const s1 = recordRadixSort(ctx, colKey, P, b.cols - 1, false, owned);
  const rowSorted = make(P);
  ctx.dispatch({ code: GATHER, buffers: [pP, rowKey, s1.perm, rowSorted], threads: P });
  // With one column the first sort moved nothing: the expansion's rows are already in order.
  const s2 = recordRadixSort(ctx, rowSorted, P, rows - 1, b.cols <= 1, owned);
  const before = make(P);
  ctx.dispatch({ code: HEADS, buffers: [pP, s2.perm, s1.keys, s2.keys, before], threads: P });
  recordScan(ctx, before, P, owned);
  const start = make(plan.bound + 1);
  const col = make(plan.bound);
  const rowCount = make(rows);
  ctx.dispatch({ code: SEGMENTS, buffers: [pP, s2.perm, s1.keys, s2.keys, before, start, col, rowCount], threads: P });
  const val = make(plan.bound);
  ctx.dispatch({
    code: sumSource(dtype),
    buffers: [up(Uint32Array.of(plan.bound)), start, s1.perm, s2.perm, prod, val],
    threads: plan.bound,
  });
  return { col, val, rowCount };
}
