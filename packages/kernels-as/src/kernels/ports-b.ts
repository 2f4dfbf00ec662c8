import type { DenseData, DType, Scalar, SparseData, Values } from '../generated/kernel-types.js';
import { rowMajorStrides, sizeOf } from '@sparse/kernels-js/internals';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { delegate } from '../delegate.js';
import { REASONS, WASM_BYTES } from '../delegation.js';

type Args = Record<string, unknown>;
type Kernel = (args: Args) => Args;
type JsKernel = (args: never) => Args;

/** Why a call with bool or string values runs on the JS kernels: only 4- and 8-byte values are moved in wasm. */
/** Why a call whose buffers would not fit wasm memory runs on the JS kernels. */
const TWO_32 = 2n ** 32n;
const TWO_63 = 2n ** 63n;

/** The size in bytes of one value in wasm memory: 4 or 8; undefined for bool and string (not moved in wasm). */
function valueBytes(dtype: DType): 4 | 8 | undefined {
  if (dtype === 'float32' || dtype === 'int32') return 4;
  if (dtype === 'float64' || dtype === 'int64') return 8;
  return undefined;
}

/** The exact number of elements of a dense shape. */
function bigSize(shape: readonly number[]): bigint {
  let n = 1n;
  for (const d of shape) n *= BigInt(d);
  return n;
}

/** Exact row-major strides. */
function bigStrides(shape: readonly number[]): bigint[] {
  const out = new Array<bigint>(shape.length);
  let s = 1n;
  for (let d = shape.length - 1; d >= 0; d--) {
    out[d] = s;
    s *= BigInt(shape[d]);
  }
  return out;
}

/**
 * Index rows in: the Float64Array copied in as it is (a memcpy), then converted to i32 rows in wasm (SIMD), which
 * is several times faster than converting element by element on the JS side. Returns the i32 rows' pointer.
 */
function putRows(ctx: WasmContext, indices: Float64Array): number {
  const { heap } = ctx;
  const count = indices.length;
  const f64 = putF64(ctx, indices);
  const rows = heap.alloc(count * 4);
  ctx.call('b_rows_in', [f64, count, rows]);
  return rows;
}

/** Index rows out: `count` i32 at `ptr` converted to f64 in wasm, then copied out as the Float64Array kernels speak. */
function readRows(ctx: WasmContext, ptr: number, count: number): Float64Array {
  if (count === 0) return new Float64Array(0);
  const f64 = ctx.heap.alloc(count * 8);
  ctx.call('b_rows_out', [ptr, count, f64]);
  return readF64(ctx, f64, count);
}

/** f64 in as they are (a memcpy), for kernels that only move or compare indices; returns the pointer. */
function putF64(ctx: WasmContext, data: Float64Array): number {
  const p = ctx.heap.alloc(data.length * 8);
  new Float64Array(ctx.exports.memory.buffer, p, data.length).set(data);
  return p;
}

/** `count` f64 at `ptr`, copied out. */
function readF64(ctx: WasmContext, ptr: number, count: number): Float64Array {
  return new Float64Array(ctx.exports.memory.buffer, ptr, count).slice();
}

/** Bytes in: a copy of `data` in wasm memory; returns the pointer. */
function putBytes(ctx: WasmContext, data: Uint8Array): number {
  const p = ctx.heap.alloc(data.length);
  new Uint8Array(ctx.exports.memory.buffer, p, data.length).set(data);
  return p;
}

function putTyped(ctx: WasmContext, data: Uint32Array | BigInt64Array): number {
  const p = ctx.heap.alloc(data.byteLength);
  new (data.constructor as Uint32ArrayConstructor)(ctx.exports.memory.buffer, p, data.length).set(data as Uint32Array);
  return p;
}

/** One value of the dtype (4 or 8 bytes) in wasm memory, stored as the dtype's typed array stores it. */
function putScalar(ctx: WasmContext, dtype: DType, v: Scalar): number {
  const p = ctx.heap.alloc(8);
  const x = dtype === 'int64' ? (typeof v === 'bigint' ? v : BigInt(v as number)) : (v as number);
  ctx.heap.view(dtype, p, 1)[0] = x as never;
  return p;
}

function sparse(indices: Float64Array, values: Values, shape: number[], dtype: DType): SparseData {
  return { kind: 'sparse', indices, values, shape, dtype };
}

/** The reshape target with its -1 (if any) inferred, as the JS kernel does (the runtime checked it). */
function reshapeTarget(from: readonly number[], target: readonly number[]): number[] {
  const unknown = target.indexOf(-1);
  const out = [...target];
  if (unknown < 0) return out;
  let known = 1n;
  target.forEach((d, i) => {
    if (i !== unknown) known *= BigInt(d);
  });
  out[unknown] = Number(bigSize(from) / known);
  return out;
}

/** sparse_reshape: positions in u32 (dense size below 2^32) or u64 (below 2^63) arithmetic; the values stay in JS. */
function sparseReshape(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const outShape = reshapeTarget(sp.shape, args.shape as number[]);
    if (!fitsI32(sp.shape) || !fitsI32(outShape)) return delegate(js, args, REASONS.wideDims);
    const size = bigSize(sp.shape);
    if (size >= TWO_63) return delegate(js, args, REASONS.beyondI64);
    const n = sp.values.length;
    const [inRank, outRank] = [sp.shape.length, outShape.length];
    if (n * (inRank + outRank) * 12 + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    let indices: Float64Array = new Float64Array(0);
    if (n > 0) {
      const { heap } = ctx;
      heap.reset();
      const idx = putRows(ctx, sp.indices);
      const narrow = size < TWO_32;
      const strides = bigStrides(sp.shape);
      const st = narrow ? putTyped(ctx, Uint32Array.from(strides, Number)) : putTyped(ctx, BigInt64Array.from(strides));
      const dims = heap.putI32(outShape);
      const out = heap.alloc(n * outRank * 4);
      ctx.call(narrow ? 'b_reshape_32' : 'b_reshape_64', [idx, n, inRank, st, outRank, dims, out]);
      indices = readRows(ctx, out, n * outRank);
    }
    return { output: sparse(indices, sp.values.slice(), outShape, sp.dtype) };
  };
}

/**
 * sparse_expand_dims: the index rows widened in wasm, as f64 (only moved, so any dim runs here); the values stay in
 * JS (so any dtype runs here too).
 */
function sparseExpandDims(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const axis = args.axis as number;
    const rank = sp.shape.length;
    const at = axis < 0 ? axis + rank + 1 : axis;
    const n = sp.values.length;
    if (n * (2 * rank + 1) * 8 + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    let indices: Float64Array = new Float64Array(0);
    if (n > 0) {
      ctx.heap.reset();
      const idx = putF64(ctx, sp.indices);
      const out = ctx.heap.alloc(n * (rank + 1) * 8);
      ctx.call('b_expand_dims', [idx, n, rank, at, out]);
      indices = readF64(ctx, out, n * (rank + 1));
    }
    const outShape = [...sp.shape.slice(0, at), 1, ...sp.shape.slice(at)];
    return { output: sparse(indices, sp.values.slice(), outShape, sp.dtype) };
  };
}

/** sparse_slice: the box test and the compaction in wasm, the box clamped to the dense shape (so it fits i32). */
function sparseSlice(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const start = args.start as number[];
    const size = args.size as number[];
    const vb = valueBytes(sp.dtype);
    if (!vb) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const { shape, dtype } = sp;
    const rank = shape.length;
    const n = sp.values.length;
    if (n * (rank * 24 + vb * 2) + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const end = start.map((s, d) => s + size[d]);
    // Every index is below its dim, so clamping both ends of the box to the dim changes no comparison.
    const lo = start.map((s, d) => Math.min(s, shape[d]));
    const hi = end.map((e, d) => Math.min(e, shape[d]));
    const { heap } = ctx;
    heap.reset();
    const idx = putRows(ctx, sp.indices);
    const loP = heap.putI32(lo);
    const hiP = heap.putI32(hi);
    const vals = heap.putValues(dtype, sp.values);
    const outIdx = heap.alloc(n * rank * 4);
    const outVals = heap.alloc(n * vb);
    const m = ctx.call(`b_slice_${vb}`, [idx, n, rank, loP, hiP, vals, outIdx, outVals]);
    const outShape = shape.map((dim, d) => Math.max(Math.min(end[d], dim) - start[d], 0));
    return { output: sparse(readRows(ctx, outIdx, m * rank), heap.readValues(dtype, outVals, m), outShape, dtype) };
  };
}

/** sparse_split: a counting sort by piece in wasm; each piece is then one contiguous run of the output buffers. */
function sparseSplit(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const numSplit = args.num_split as number;
    const vb = valueBytes(sp.dtype);
    if (!vb) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const { shape, dtype } = sp;
    const rank = shape.length;
    const axis = args.axis as number;
    const ax = axis < 0 ? axis + rank : axis;
    const n = sp.values.length;
    if (n * (rank * 24 + vb * 2 + 4) + numSplit * 4 + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const dim = shape[ax];
    const r = dim % numSplit;
    const q = (dim - r) / numSplit;
    const { heap } = ctx;
    heap.reset();
    const idx = putRows(ctx, sp.indices);
    const vals = heap.putValues(dtype, sp.values);
    const ends = heap.zeros('i32', numSplit);
    const piece = heap.alloc(n * 4);
    const outIdx = heap.alloc(n * rank * 4);
    const outVals = heap.alloc(n * vb);
    ctx.call(`b_split_${vb}`, [idx, n, rank, ax, q, r, numSplit, ends, piece, vals, outIdx, outVals]);
    const endOf = heap.i32(ends, numSplit).slice();
    const all = ctx.heap.alloc(n * rank * 8);
    ctx.call('b_rows_out', [outIdx, n * rank, all]);
    const allRows = new Float64Array(ctx.exports.memory.buffer, all, n * rank);
    const allValues = heap.view(dtype, outVals, n);
    const output: SparseData[] = [];
    for (let p = 0, from = 0; p < numSplit; p++) {
      const to = endOf[p];
      const outShape = [...shape];
      outShape[ax] = p < r ? q + 1 : q;
      output.push(sparse(allRows.slice(from * rank, to * rank), allValues.slice(from, to) as Values, outShape, dtype));
      from = to;
    }
    return { output };
  };
}

/** sparse_retain: the compaction by the mask in wasm, the index rows moved as f64 (so any dim runs here). */
function sparseRetain(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const mask = (args.to_retain as DenseData).data as Uint8Array;
    const vb = valueBytes(sp.dtype);
    if (!vb) return delegate(js, args, REASONS.notNumeric);
    const { shape, dtype } = sp;
    const rank = shape.length;
    const n = sp.values.length;
    if (n * (rank * 16 + vb * 2 + 1) + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    const idx = putF64(ctx, sp.indices);
    const keep = putBytes(ctx, mask);
    const vals = heap.putValues(dtype, sp.values);
    const outIdx = heap.alloc(n * rank * 8);
    const outVals = heap.alloc(n * vb);
    const m = ctx.call(`b_retain_${vb}`, [idx, n, rank, keep, vals, outIdx, outVals]);
    return { output: sparse(readF64(ctx, outIdx, m * rank), heap.readValues(dtype, outVals, m), [...shape], dtype) };
  };
}

/**
 * sparse_reset_shape: the only computation, the tight bounding box when `new_shape` is null, runs in wasm on the
 * f64 indices (compared exactly, any dim); the indices and values are copied unchanged (any dtype).
 */
function sparseResetShape(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const newShape = args.new_shape as number[] | null;
    const rank = sp.shape.length;
    const n = sp.values.length;
    let shape: number[];
    if (newShape !== null) shape = [...newShape];
    else {
      if (n * rank * 8 + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
      ctx.heap.reset();
      const idx = putF64(ctx, sp.indices);
      const out = ctx.heap.alloc(rank * 8);
      ctx.call('b_bounding_box', [idx, n, rank, out]);
      shape = Array.from(new Float64Array(ctx.exports.memory.buffer, out, rank));
    }
    return { output: sparse(sp.indices.slice(), sp.values.slice(), shape, sp.dtype) };
  };
}

/** sparse_fill_empty_rows: a counting sort by row in wasm, in two passes (plan, then scatter into exact buffers). */
function sparseFillEmptyRows(ctx: WasmContext, js: JsKernel): Kernel {
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
    heap.reset();
    const idx = putRows(ctx, sp.indices);
    const vals = heap.putValues(dtype, sp.values);
    const fill = putScalar(ctx, dtype, args.default_value as Scalar);
    const start = heap.zeros('i32', rows);
    const empty = heap.alloc(rows);
    const total = ctx.call('b_fill_rows_plan', [idx, n, rank, rows, start, empty]);
    const outIdx = heap.alloc(total * rank * 4);
    const outVals = heap.alloc(total * vb);
    ctx.call(`b_fill_rows_${vb}`, [idx, n, rank, rows, start, empty, vals, fill, outIdx, outVals]);
    const emptyRows = new Uint8Array(ctx.exports.memory.buffer, empty, rows).slice();
    return {
      output: sparse(readRows(ctx, outIdx, total * rank), heap.readValues(dtype, outVals, total), [...shape], dtype),
      empty_row_indicator: { kind: 'dense', data: emptyRows, shape: [rows], dtype: 'bool' } satisfies DenseData,
    };
  };
}

/** sparse_to_indicator: the dense bool output zeroed and set in wasm (offsets below 2^31: the runtime caps it). */
function sparseToIndicator(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const vocab = args.vocab_size as number;
    const rank = sp.shape.length;
    const outShape = [...sp.shape.slice(0, -1), vocab];
    if (!fitsI32(outShape)) return delegate(js, args, REASONS.wideDims);
    const size = sizeOf(outShape);
    const ib = sp.dtype === 'int64' ? 8 : 4;
    const n = sp.values.length;
    if (size + n * (rank * 12 + ib) + rank * 4 + 64 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    const idx = putRows(ctx, sp.indices); // the last column is discarded (and not bounded): it may saturate, unread
    const strides = heap.putI32(rowMajorStrides(outShape));
    const ids = heap.putValues(sp.dtype, sp.values);
    const out = heap.alloc(size);
    ctx.call(`b_to_indicator_${ib}`, [idx, n, rank, strides, ids, out, size]);
    const data = new Uint8Array(ctx.exports.memory.buffer, out, size).slice();
    return { output: { kind: 'dense', data, shape: outShape, dtype: 'bool' } satisfies DenseData };
  };
}

/**
 * sparse_merge: the merged rows built in wasm; unless already_sorted, the stable canonical order by a merge sort
 * on exact i64 row-major offsets in wasm, and the rows and values gathered in that order.
 */
function sparseMerge(ctx: WasmContext, js: JsKernel): Kernel {
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
    if (!sorted && bigSize(outShape) >= TWO_63) return delegate(js, args, REASONS.beyondI64);
    const ib = idDtype === 'int64' ? 8 : 4;
    const n = first.values.length;
    if (n * (inRank * 12 + m * ib + outRank * 16 + vb * 2 + 24) + m * 4 + outRank * 8 + 128 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    const idx = putRows(ctx, first.indices); // the last column is discarded (and not bounded): it may saturate, unread
    const table = heap.putI32(ids.map((st) => heap.putValues(idDtype, st.values)));
    const rows = heap.alloc(n * outRank * 4);
    ctx.call(`b_merge_rows_${ib}`, [idx, n, inRank, table, m, rows]);
    if (sorted) return { output: sparse(readRows(ctx, rows, n * outRank), spValues.values.slice(), outShape, dtype) };
    const vals = heap.putValues(dtype, spValues.values);
    const strides = putTyped(ctx, BigInt64Array.from(bigStrides(outShape)));
    const keys = heap.alloc(n * 8);
    const tmpKeys = heap.alloc(n * 8);
    const perm = heap.alloc(n * 4);
    const tmpPerm = heap.alloc(n * 4);
    ctx.call('b_canonical_order', [rows, n, outRank, strides, keys, perm, tmpKeys, tmpPerm]);
    const outIdx = heap.alloc(n * outRank * 4);
    const outVals = heap.alloc(n * vb);
    ctx.call(`b_gather_${vb}`, [perm, n, outRank, rows, vals, outIdx, outVals]);
    return { output: sparse(readRows(ctx, outIdx, n * outRank), heap.readValues(dtype, outVals, n), outShape, dtype) };
  };
}

/** Structural ops ported to wasm (group b), by op id: each takes the module context and the JS kernel to delegate to. */
export const PORTS_B: Record<string, (ctx: WasmContext, js: JsKernel) => Kernel> = {
  sparse_reshape: sparseReshape,
  sparse_slice: sparseSlice,
  sparse_split: sparseSplit,
  sparse_fill_empty_rows: sparseFillEmptyRows,
  sparse_to_indicator: sparseToIndicator,
  sparse_retain: sparseRetain,
  sparse_expand_dims: sparseExpandDims,
  sparse_reset_shape: sparseResetShape,
  sparse_merge: sparseMerge,
};
