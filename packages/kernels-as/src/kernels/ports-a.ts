import type { DenseData, DType, SparseData } from '../generated/kernel-types.js';
import { allocValues, concatShape, sizeOf } from '@sparse/kernels-js/internals';
import { bytesPerElement, type Heap } from '../heap.js';
import { fitsI32, type WasmContext } from '../wasm-context.js';
import { delegate } from '../delegate.js';
import { REASONS, WASM_BYTES } from '../delegation.js';

type Args = Record<string, unknown>;
type Kernel = (args: Args) => Args;
type JsKernel = (args: never) => Args;

const I32_MAX = 2 ** 31 - 1;
const NUMERIC = new Set<DType>(['float32', 'float64', 'int32', 'int64']);
/** Every buffer of one call must fit wasm32 memory with room to spare; beyond this the JS kernel runs instead. */
/** ceil(64 / 11) radix passes × 2048 u32 counters: the histogram buffer of the sort (assembly/a-sort.ts). */
const HIST_BYTES = 6 * 2048 * 4;

/** n × rank i32 from wasm memory as the Float64Array indices kernels speak. */
function readIndices(heap: Heap, ptr: number, len: number): Float64Array {
  return new Float64Array(heap.i32(ptr, len));
}


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
function sortBytes(n: number, rank: number, size: number): number {
  return n * (rank * 4 + size + 8 + 8 + 4 + 4) + HIST_BYTES + rank * 12 + 8;
}

/**
 * n entries already in wasm memory (i32 rows at idx, values at vals) put in canonical order, stably, in wasm;
 * returned as plain data with `shape`.
 */
function sortGather(ctx: WasmContext, idx: number, vals: number, n: number, shape: number[], dtype: DType): SparseData {
  const { heap } = ctx;
  const rank = shape.length;
  const size = bytesPerElement(dtype);
  const { strides, bounds } = sortChunks(shape);
  const outIdx = heap.alloc(n * rank * 4);
  const outVals = heap.alloc(n * size);
  const st = heap.alloc(rank * 8);
  const bd = heap.putI32(bounds);
  const keys = heap.alloc(n * 8);
  const keys2 = heap.alloc(n * 8);
  const hist = heap.alloc(HIST_BYTES);
  const order = heap.alloc(n * 4);
  const order2 = heap.alloc(n * 4);
  heap.view('int64', st, rank).set(strides.map((s) => BigInt.asIntN(64, s)) as never);
  ctx.call(`a_reorder_${size}`, [idx, n, rank, vals, outIdx, outVals, st, bd, bounds.length - 1, keys, keys2, order, order2, hist]);
  return { kind: 'sparse', indices: readIndices(heap, outIdx, n * rank), values: heap.readValues(dtype, outVals, n), shape, dtype };
}

/** Rows of an index matrix: the first n × rank numbers (a longer buffer is read as kernels-js reads it). */
function rowsOf(sp: SparseData): Float64Array {
  const len = sp.values.length * sp.shape.length;
  return sp.indices.length === len ? sp.indices : sp.indices.subarray(0, len);
}

/** sparse_reorder: canonical order, stable, by the shared wasm sort. */
function sparseReorder(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const sp = args.sp_input as SparseData;
    if (!NUMERIC.has(sp.dtype)) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const n = sp.values.length;
    const rank = sp.shape.length;
    const size = bytesPerElement(sp.dtype);
    if (n * (rank * 8 + size) + sortBytes(n, rank, size) > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    const idx = ctx.putIndices(rowsOf(sp));
    const vals = heap.putValues(sp.dtype, sp.values);
    return { output: sortGather(ctx, idx, vals, n, sp.shape.slice(), sp.dtype) };
  };
}

/** sparse_transpose: the index columns permuted in wasm, then the shared sort. */
function sparseTranspose(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const sp = args.sp_input as SparseData;
    if (!NUMERIC.has(sp.dtype)) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const n = sp.values.length;
    const rank = sp.shape.length;
    const size = bytesPerElement(sp.dtype);
    if (n * (rank * 12 + size) + sortBytes(n, rank, size) > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const p = (args.perm as number[] | null) ?? sp.shape.map((_, d) => rank - 1 - d);
    const shape = p.map((d) => sp.shape[d]);
    const { heap } = ctx;
    heap.reset();
    const idx = ctx.putIndices(rowsOf(sp));
    const perm = heap.putI32(p);
    const moved = heap.alloc(n * rank * 4);
    const vals = heap.putValues(sp.dtype, sp.values);
    ctx.call('a_permute_cols', [idx, n, rank, perm, moved]);
    return { output: sortGather(ctx, moved, vals, n, shape, sp.dtype) };
  };
}

/** sparse_concat: the inputs copied into one buffer and moved along the axis in wasm, then the shared sort. */
function sparseConcat(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const inputs = args.sp_inputs as SparseData[];
    const first = inputs[0];
    const { dtype } = first;
    if (!NUMERIC.has(dtype)) return delegate(js, args, REASONS.notNumeric);
    const rank = first.shape.length;
    if (inputs.length === 1) {
      // As TensorFlow (and the JS kernel): a single input comes back as it is — nothing to compute.
      return { output: { kind: 'sparse', indices: first.indices.slice(), values: first.values.slice(), shape: [...first.shape], dtype } satisfies SparseData };
    }
    const axis = args.axis as number;
    const ax = axis < 0 ? axis + rank : axis;
    const shape = concatShape(inputs, ax, args.expand_nonconcat_dim as boolean);
    if (!fitsI32(shape) || !inputs.every((s) => fitsI32(s.shape))) return delegate(js, args, REASONS.wideDims);
    let total = 0;
    for (const s of inputs) total += s.values.length;
    const size = bytesPerElement(dtype);
    if (total * (rank * 8 + size) + sortBytes(total, rank, size) > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    // Every input's indices as f64 one after another, then narrowed to i32 in place at once.
    const idx = heap.alloc(total * rank * 8);
    const vals = heap.alloc(total * size);
    let k = 0;
    for (const s of inputs) {
      const n = s.values.length;
      (heap.view('float64', idx + k * rank * 8, n * rank) as Float64Array).set(rowsOf(s));
      heap.view(dtype, vals + k * size, n).set(s.values as never);
      k += n;
    }
    ctx.call('indices_to_i32', [idx, total * rank, idx]);
    k = 0;
    let offset = 0;
    for (const s of inputs) {
      const n = s.values.length;
      ctx.call('a_shift_col', [idx + k * rank * 4, n, rank, ax, offset]);
      k += n;
      offset += s.shape[ax];
    }
    return { output: sortGather(ctx, idx, vals, total, shape, dtype) };
  };
}

/** from_dense: a count of the non-zeros (SIMD), then one pass writing their index rows and values, in wasm. */
function fromDense(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const t = args.tensor as DenseData;
    const { dtype, shape } = t;
    if (!NUMERIC.has(dtype)) return delegate(js, args, REASONS.notNumeric);
    if (!fitsI32(shape)) return delegate(js, args, REASONS.wideDims);
    const size = t.data.length;
    const rank = shape.length;
    const bpe = bytesPerElement(dtype);
    if (size * bpe > WASM_BYTES / 2) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    const data = heap.putValues(dtype, t.data);
    const nnz = ctx.call(`a_count_nonzero_${dtype}`, [data, size]);
    if (nnz * (rank * 4 + bpe) > WASM_BYTES / 2) return delegate(js, args, REASONS.tooBig);
    const sh = heap.putI32(shape);
    const counter = heap.zeros('i32', Math.max(rank, 1));
    const outIdx = heap.alloc(nnz * rank * 4);
    const outVals = heap.alloc(nnz * bpe);
    ctx.call(`a_from_dense_${dtype}`, [data, sh, rank, counter, outIdx, outVals]);
    const output: SparseData = { kind: 'sparse', indices: readIndices(heap, outIdx, nnz * rank), values: heap.readValues(dtype, outVals, nnz), shape: [...shape], dtype };
    return { output };
  };
}

/** sparse_softmax (float32 / float64): one pass over the runs of each innermost row, in wasm. */
function sparseSoftmax(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const sp = args.sp_input as SparseData;
    const { dtype } = sp;
    if (dtype !== 'float32' && dtype !== 'float64') return delegate(js, args, 'softmax is defined for float32 and float64 only: ran on the JS kernels');
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const n = sp.values.length;
    const rank = sp.shape.length;
    const bpe = bytesPerElement(dtype);
    if (n * (rank * 8 + 2 * bpe) > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    const idx = ctx.putIndices(rowsOf(sp));
    const vals = heap.putValues(dtype, sp.values);
    const out = heap.alloc(n * bpe);
    ctx.call(`a_softmax_${dtype}`, [idx, n, rank, vals, out]);
    const output: SparseData = { kind: 'sparse', indices: sp.indices.slice(), values: heap.readValues(dtype, out, n), shape: [...sp.shape], dtype };
    return { output };
  };
}

/** Copies 1-D integer ids (int32, or int64 narrowed in wasm: each fits i32, checked by the caller) in as i32. */
function putIds(ctx: WasmContext, ids: ArrayLike<number | bigint>): number {
  if (ids instanceof BigInt64Array) {
    const p = ctx.heap.putValues('int64', ids);
    ctx.call('a_narrow_i64', [p, ids.length]);
    return p;
  }
  return ctx.heap.putI32(ids as ArrayLike<number>);
}

/** sparse_segment_sum: data rows gathered by the indices and added into their segments, SIMD along the rows. */
function sparseSegmentSum(ctx: WasmContext, js: JsKernel): Kernel {
  return (args) => {
    const data = args.data as DenseData;
    const { dtype } = data;
    if (!NUMERIC.has(dtype)) return delegate(js, args, REASONS.notNumeric);
    const idx = (args.indices as DenseData).data as ArrayLike<number | bigint>;
    const ids = (args.segment_ids as DenseData).data as ArrayLike<number | bigint>;
    const n = idx.length;
    const inner = sizeOf(data.shape.slice(1));
    const rows = n === 0 ? 0 : Number(ids[n - 1]) + 1;
    const shape = [rows, ...data.shape.slice(1)];
    // No indices or empty rows: an empty output, nothing to add.
    if (n === 0 || inner === 0) return { output: { kind: 'dense', data: allocValues(dtype, 0), shape, dtype } satisfies DenseData };
    if (!fitsI32(data.shape) || rows > I32_MAX) return delegate(js, args, REASONS.wideDims);
    const bpe = bytesPerElement(dtype);
    if ((data.data.length + rows * inner) * bpe + n * 16 > WASM_BYTES) return delegate(js, args, REASONS.tooBig);
    const { heap } = ctx;
    heap.reset();
    const src = heap.putValues(dtype, data.data);
    const ip = putIds(ctx, idx);
    const sp = putIds(ctx, ids);
    const out = heap.zeros(dtype, rows * inner);
    ctx.call(`a_segment_sum_${dtype}`, [src, inner, ip, sp, n, out]);
    return { output: { kind: 'dense', data: heap.readValues(dtype, out, rows * inner), shape, dtype } satisfies DenseData };
  };
}

/** Structural ops ported to wasm (group a), by op id: each takes the module context and the JS kernel to delegate to. */
export const PORTS_A: Record<string, (ctx: WasmContext, js: JsKernel) => Kernel> = {
  sparse_reorder: sparseReorder,
  sparse_transpose: sparseTranspose,
  sparse_concat: sparseConcat,
  from_dense: fromDense,
  sparse_softmax: sparseSoftmax,
  sparse_segment_sum: sparseSegmentSum,
};
