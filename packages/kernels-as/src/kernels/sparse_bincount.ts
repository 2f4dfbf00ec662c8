import { delegate } from '@sparse/kernel-abi';
import type { KernelTable, OpKernel, SparseData } from '@sparse/kernel-abi';
import type { WasmContext } from '../wasm-context.js';
import { fitsI32 } from '../wasm-context.js';
import { bytesPerElement } from '../heap.js';
import { REASONS, WASM_BYTES } from '../delegation.js';
import { sortBytes, sortOrder } from '../sort-gather.js';
import { sparse } from '../kernel.js';

const I32_MAX = 2 ** 31 - 1;
/** The modes of assembly/bincount.ts. */
const COUNT = 0;
const WEIGHTS = 1;
const BINARY = 2;

/**
 * sparse_bincount in wasm: the counted values keyed by [row, value] or [value], sorted by the shared radix sort, each
 * run of one key summed into one entry (assembly/bincount.ts). O(n) besides the sort. Delegated where a key does not
 * fit i32 (an output dim past 2^31 - 1: a large int64 value, minlength or maxlength) or the buffers would pass the
 * wasm memory the kernels allow themselves.
 */
export function sparseBincount(ctx: WasmContext, js: KernelTable['sparse_bincount']): OpKernel<'sparse_bincount'> {
  return (args) => {
    const values = args.values;
    const weights = args.weights as SparseData | null;
    const n = values.values.length;
    const inRank = values.shape.length;
    const byRow = args.axis === -1 && inRank === 2;
    const r = byRow ? 2 : 1;
    const dtype = weights?.dtype ?? values.dtype;
    const vBytes = bytesPerElement(values.dtype);
    const wBytes = bytesPerElement(dtype);
    if (byRow && !fitsI32(values.shape)) return delegate(js, args, REASONS.wideDims);
    // Values, indices (byRow) and weights copied in, keys and entry numbers, the output's values; the sort's scratch
    // and the output's keys are sortBytes'.
    const need = n * (vBytes + (byRow ? inRank * 8 : 0) + 2 * wBytes + r * 4 + 4) + sortBytes(n, r, 0);
    if (need > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const cap = args.maxlength ?? -1;
    const { heap } = ctx;
    ctx.begin();
    const idx = byRow ? ctx.indicesOf(values) : 0;
    const vals = ctx.valuesOf(values);
    const w = weights ? ctx.valuesOf(weights) : 0;
    const keys = heap.alloc(n * r * 4);
    const counted = heap.alloc(n * 4);
    const largestAt = heap.alloc(8);
    const m = ctx.call(`bincount_keys_${values.dtype as 'int32' | 'int64'}`, [
      vals,
      n,
      BigInt(cap),
      idx,
      inRank,
      byRow ? 1 : 0,
      keys,
      counted,
      largestAt,
    ]);
    const largest = Number(heap.view('int64', largestAt, 1)[0]);
    const size = cap >= 0 ? cap : Math.max(largest + 1, args.minlength ?? -1);
    // A key holds the value as i32: past it, the JS kernel counts.
    if (size > I32_MAX) return delegate(js, args, REASONS.wideDims);
    const shape = byRow ? [values.shape[0], size] : [size];
    const order = sortOrder(ctx, keys, m, shape);
    const outIdx = heap.alloc(m * r * 4);
    const outVals = heap.alloc(m * wBytes);
    const mode = args.binary_output ? BINARY : weights ? WEIGHTS : COUNT;
    const k = ctx.call(`bincount_runs_${dtype as 'float32' | 'float64' | 'int32' | 'int64'}`, [
      keys,
      r,
      counted,
      order,
      m,
      w,
      mode,
      outIdx,
      outVals,
    ]);
    return { output: sparse(heap.readIndices(outIdx, k * r), heap.readValues(dtype, outVals, k), shape, dtype) };
  };
}
