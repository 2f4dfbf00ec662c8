import type { DType, SparseData } from '@sparse/kernel-abi';
import { bytesPerElement } from './heap.js';
import { fitsI32, type WasmContext } from './wasm-context.js';
import { REASONS, WASM_BYTES } from './delegation.js';
import { isNumeric, sparse } from './kernel.js';

/** ceil(64 / 11) radix passes × 2048 u32 counters: the histogram buffer of the sort (assembly/radix-sort.ts). */
const HIST_BYTES = 6 * 2048 * 4;
const U64_SPAN = 2n ** 64n;

/**
 * The column chunks of the wasm sort: from the last column, as many columns as one u64 mixed-radix key holds
 * exactly (the product of their dims at most 2^64), each column's stride within its chunk. One chunk (the flat
 * offset) whenever the dense size fits; a huge dense shape takes a few.
 */
function sortChunks(shape: readonly number[]): { strides: bigint[]; bounds: number[] } {
  const rank = shape.length;
  const strides = new Array<bigint>(rank);
  const bounds = [rank];
  let span = 1n;
  for (let d = rank - 1; d >= 0; d--) {
    const dim = BigInt(Math.max(shape[d], 1));
    if (span * dim > U64_SPAN) {
      bounds.unshift(d + 1);
      span = 1n;
    }
    strides[d] = span;
    span *= dim;
  }
  bounds.unshift(0);
  return { strides, bounds };
}

/** The bytes the sort + gather of n entries needs besides its input. */
export function sortBytes(n: number, rank: number, size: number): number {
  return n * (rank * 4 + size + 8 + 8 + 4 + 4) + HIST_BYTES + rank * 12 + 8;
}

/** The scratch of the wasm sort of n i32 index rows of `shape` (assembly/radix-sort.ts), in the order it takes it. */
function sortScratch(ctx: WasmContext, n: number, shape: readonly number[]) {
  const { heap } = ctx;
  const { strides, bounds } = sortChunks(shape);
  const st = heap.alloc(shape.length * 8);
  heap.view('int64', st, shape.length).set(strides.map((s) => BigInt.asIntN(64, s)) as never);
  return {
    strides: st,
    bounds: heap.putI32(bounds),
    chunks: bounds.length - 1,
    keys: heap.alloc(n * 8),
    keys2: heap.alloc(n * 8),
    order: heap.alloc(n * 4),
    order2: heap.alloc(n * 4),
    hist: heap.alloc(HIST_BYTES),
  };
}

/**
 * n entries already in wasm memory (i32 rows at idx, values at vals) put in canonical order, stably, in wasm;
 * returned as plain data with `shape`.
 */
export function sortGather(
  ctx: WasmContext,
  idx: number,
  vals: number,
  n: number,
  shape: number[],
  dtype: DType,
): SparseData {
  const { heap } = ctx;
  const rank = shape.length;
  const size = bytesPerElement(dtype);
  const outIdx = heap.alloc(n * rank * 4);
  const outVals = heap.alloc(n * size);
  const s = sortScratch(ctx, n, shape);
  ctx.call(`reorder_${size}`, [
    idx,
    n,
    rank,
    vals,
    outIdx,
    outVals,
    s.strides,
    s.bounds,
    s.chunks,
    s.keys,
    s.keys2,
    s.order,
    s.order2,
    s.hist,
  ]);
  return sparse(heap.readIndices(outIdx, n * rank), heap.readValues(dtype, outVals, n), shape, dtype);
}

/**
 * The stable canonical order of n i32 index rows of `shape` already in wasm memory (at idx), sorted in wasm: a
 * pointer to n u32 entry numbers in row-major order.
 */
export function sortOrder(ctx: WasmContext, idx: number, n: number, shape: readonly number[]): number {
  const s = sortScratch(ctx, n, shape);
  return ctx.call('sort_order', [
    idx,
    n,
    shape.length,
    s.strides,
    s.bounds,
    s.chunks,
    s.keys,
    s.keys2,
    s.order,
    s.order2,
    s.hist,
  ]);
}

/**
 * Why sorting sp's entries cannot run in wasm, or undefined when it can: `indexBytes` per index entry in wasm
 * memory before the sort (8 for a copy narrowed in place, more where the kernel rewrites the rows).
 */
export function whyNotSortable(sp: SparseData, indexBytes: number): string | undefined {
  if (!isNumeric(sp.dtype)) return REASONS.notNumeric;
  if (!fitsI32(sp.shape)) return REASONS.wideDims;
  const n = sp.values.length;
  const rank = sp.shape.length;
  const size = bytesPerElement(sp.dtype);
  if (n * (rank * indexBytes + size) + sortBytes(n, rank, size) > WASM_BYTES) return REASONS.tooBig;
  return undefined;
}
