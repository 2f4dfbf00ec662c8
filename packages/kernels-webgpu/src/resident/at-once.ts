/// <reference types="@webgpu/types" />
import {
  broadcastOffsets,
  delegate,
  groupBound,
  magnitude as M,
  magnitudesOf,
  matmulPlan,
  reducePlan,
  type DenseData,
  type KernelResult,
  type SparseData,
  type Values,
} from '@sparse/kernel-abi';
import { ENTRY, type WebGpuContext } from '../context.js';
import { REASONS } from '../delegation.js';
import { WEBGPU_FAMILIES, type WebGpuFamilySource } from '../generated/families.js';
import { inputsOk, kernelFor, params, scalarsOf, type GpuDtype, type GpuValues } from '../families/run.js';
import type { Args, JsKernel } from '../kernel.js';
import { INT32_MAX, rowOrder, sampledSource, spmmSource, strides } from '../matmul/spmm.js';
import type { OnGpu, StructureCache } from './structure-cache.js';
import { groupLayout, U32_MAX } from '../families/reduce.js';
import { sumOfProducts } from '../families/sum-bound.js';
import { DeviceArray } from './device-array.js';
import type { PreparedArrays } from './prepared.js';

/** An op's kernel that runs at once: its work recorded on the GPU, its result left there. */
export type AtOnceKernel = (args: Args) => KernelResult<Args>;

/** Sets flag[0] where a float32 value is inf, nan or a subnormal (its bits). p = [n]. */
const SCREEN = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read_write> flag: array<atomic<u32>>;
${ENTRY}
  if (i >= p[0]) { return; }
  let e = (x[i] >> 23u) & 0xffu;
  if (e == 0xffu || (e == 0u && (x[i] & 0x7fffffu) != 0u)) { atomicOr(&flag[0], 1u); }
}
`;

/** out[to[i]] = x[i]: a reduction's values laid out group by group. p = [n]. */
const SCATTER = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read> to: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  out[to[i]] = x[i];
}
`;

/**
 * An operand as a kernel finds it: values in host memory, or on the GPU (with their bound, and whether they are
 * screened: a buffer handed in is not), or not yet made.
 */
export type Operand =
  { host: GpuValues } | { buffer: GPUBuffer; bound: M.Maybe; screened: boolean } | { deferred: true };

export function operand(values: Values | DeviceArray, prepared: PreparedArrays): Operand {
  if (values instanceof DeviceArray) {
    if (values.host) return { host: values.host as GpuValues };
    if (!values.buffer) return { deferred: true };
    return { buffer: values.buffer, bound: values.bound, screened: values.screened };
  }
  const kept = prepared.get(values);
  return kept ? { ...kept, screened: true } : { host: values as GpuValues };
}

/**
 * How a call's results are screened: the bound of each float32 output (none for int32), or none at all where an
 * operand is a buffer handed in unscreened (a TF.js tensor's: its results are not screened either, and are what
 * WGSL computes), or why the call cannot run on the GPU. Screened, host values must be finite and zero or normal,
 * values on the GPU bring the bound of the op that made them (a value outside it sets that op's flag), and each
 * output's bound (`boundsOf` the operands' magnitudes) must rule out a subnormal step.
 */
export type Screening = { bounds: M.Maybe[] } | { unscreened: true } | { reason: string };

export function screening(
  dtype: GpuDtype,
  ops: Operand[],
  scalars: GpuValues,
  boundsOf: (ms: M.Maybe[]) => M.Maybe[],
): Screening {
  if (ops.some((o) => 'deferred' in o)) return { reason: REASONS.subnormal };
  if (ops.some((o) => 'buffer' in o && !o.screened)) return { unscreened: true };
  if (dtype !== 'float32') return { bounds: [] };
  const hosts = ops.flatMap((o) => ('host' in o ? [o.host] : []));
  if (!inputsOk(dtype, ...hosts, scalars)) return { reason: REASONS.nonFinite };
  const ms = ops.map((o) => ('host' in o ? magnitudesOf(o.host) : 'bound' in o ? o.bound : undefined));
  if (ms.some((m) => !m)) return { reason: REASONS.subnormal };
  const bounds = boundsOf(ms);
  return bounds.every(Boolean) ? { bounds } : { reason: REASONS.subnormal };
}

/** What `record` takes of a screening: output `k`'s bound, or false where the results are not screened. */
export function boundOf(s: { bounds: M.Maybe[] } | { unscreened: true }, k = 0): M.Maybe | false {
  return 'unscreened' in s ? false : s.bounds[k];
}

/** An output as the at-once kernel makes it: its name, dtype and length, and the tensor around its values. */
export interface OutputShape {
  name: string;
  dtype: GpuDtype;
  length: number;
  wrap(values: Values | DeviceArray): SparseData | DenseData;
}

/**
 * Records one pass of a family kernel and the screen of its result: the operands on the GPU bound as they are, those
 * in host memory uploaded; the result stays on the GPU as a DeviceArray. Buffers only this pass reads are given back
 * once it is submitted.
 */
export function record(
  ctx: WebGpuContext,
  code: string,
  threads: number,
  inputs: (Operand | GpuValues | Uint32Array)[],
  out: OutputShape,
  /** The result's bound where it is screened (undefined for int32), or false where it is not. */
  bound: M.Maybe | false,
  recipe: { js: JsKernel; args: Args; item?: number },
  /**
   * Scratch buffers the kernel binds after its result (given back once submitted), and `flag`, one of them that the
   * kernel itself sets where its result is not to be taken (a tie), which the screen sets too.
   */
  after: { scratch: GPUBuffer[]; flag?: GPUBuffer; moves?: boolean } = { scratch: [] },
): DeviceArray {
  const transient: GPUBuffer[] = [...after.scratch.filter((b) => b !== after.flag)];
  const bind = (x: Operand | GpuValues | Uint32Array): GPUBuffer => {
    if (ArrayBuffer.isView(x)) return (transient.push(ctx.upload(x)), transient.at(-1)!);
    if ('host' in x) return (transient.push(ctx.upload(x.host)), transient.at(-1)!);
    return (x as { buffer: GPUBuffer }).buffer;
  };
  const buffers = inputs.map(bind);
  const result = ctx.buffer(4 * out.length);
  ctx.dispatch({ code, buffers: [...buffers, result, ...after.scratch], threads });
  let flag: GPUBuffer | undefined;
  // A kernel that only moves values computes none the GPU could get wrong: nothing to screen.
  if (out.dtype === 'float32' && bound !== false && !after.moves) {
    flag = after.flag ?? ctx.buffer(4);
    const p = ctx.upload(Uint32Array.of(out.length));
    transient.push(p);
    ctx.dispatch({ code: SCREEN, buffers: [p, result, flag], threads: out.length });
  }
  // A flag the kernel set, not screened: nothing reads it.
  if (after.flag && flag !== after.flag) transient.push(after.flag);
  ctx.releaseAfterSubmit(...transient);
  const values = new DeviceArray(ctx, out.dtype, out.length, result, {
    flag,
    bound: bound === false ? undefined : bound,
    recipe: { ...recipe, output: out.name },
    screened: bound !== false,
  });
  ctx.recordedResults();
  return values;
}

/**
 * A map or cwise op: one thread a stored entry, the sparse operand's entries kept. A cwise op's dense operand is read
 * at each entry's offset in it, broadcast (numpy rules, computed on the host from the indices).
 */
function entrywiseAtOnce(
  ctx: WebGpuContext,
  prepared: PreparedArrays,
  cache: StructureCache,
  src: WebGpuFamilySource,
  js: JsKernel,
): AtOnceKernel {
  return (args) => {
    const sp = args[src.roles.sparse!] as SparseData;
    const dense = src.roles.dense ? (args[src.roles.dense] as DenseData) : undefined;
    const out: OutputShape = {
      name: src.output,
      dtype: sp.dtype as GpuDtype,
      length: sp.values.length,
      wrap: (values) => ({
        kind: 'sparse',
        indices: sp.indices, // shared: tensors never change them, and the runtime counts who holds a buffer
        values: values as Values,
        shape: sp.shape.slice(),
        dtype: sp.dtype,
      }),
    };
    const ops = [sp.values, ...(dense ? [dense.data] : [])].map((v) => operand(v as Values | DeviceArray, prepared));
    const kernel = kernelFor(src, sp.dtype);
    if ('reason' in kernel) return elsewhere(ctx, js, args, [out], ops, kernel.reason);
    const scalars = scalarsOf(src, args, out.dtype);
    const s = screening(out.dtype, ops, scalars, (ms) => [src.float32.value!(...ms, ...Array.from(scalars, M.lit))]);
    if ('reason' in s) return elsewhere(ctx, js, args, [out], ops, s.reason);
    const n = out.length;
    if (n === 0 || !ctx.fits(4 * n) || (dense && !ctx.fits(4 * dense.data.length)))
      return elsewhere(ctx, js, args, [out], ops, REASONS.bindingLimit(ctx.maxBindingBytes));
    if (ctx.roomLeft() < 0) return elsewhere(ctx, js, args, [out], ops, REASONS.deviceBudget(ctx.heldBytes));
    // Each entry's offset in the dense operand, kept for a tensor seen again.
    const offsetsOf = (shape: number[]) =>
      cache.of(sp.indices as object, `offsets:${shape.join(',')}:${sp.shape.join(',')}`, () => ({
        host: undefined,
        arrays: { offsets: Uint32Array.from(broadcastOffsets(sp, shape)) },
      })).arrays.offsets;
    const offsets = dense ? [offsetsOf(dense.shape)] : [];
    const inputs = [params(n, 0, scalars), ...ops, ...offsets];
    return { [out.name]: out.wrap(record(ctx, kernel.wgsl, n, inputs, out, boundOf(s), { js, args })) };
  };
}

/**
 * A reduction's groups of a tensor's entries and where its values go to lie group by group (reducePlan,
 * groupLayout), kept for its indices where the cache can.
 */
function reduceLayout(
  cache: StructureCache,
  sp: SparseData,
  axes: number[] | null,
  keepdims: boolean,
  output: 'dense' | 'sparse',
) {
  const key = `reduce:${axes === null ? '*' : axes.join(',')}:${keepdims}:${output}:${sp.shape.join(',')}`;
  return cache.of(sp.indices as object, key, () => {
    const plan = reducePlan(sp, axes, keepdims, output);
    let longest = 0;
    for (let k = 0; k < plan.groups; k++) longest = Math.max(longest, plan.count[k]);
    const { start, cnt, to } = groupLayout(plan);
    const { groups, groupSize, shape, indices } = plan;
    return { host: { groups, groupSize, shape, indices, longest }, arrays: { start, cnt, to } };
  });
}

/** A matrix's entries grouped by coordinate `rowDim` (rowOrder), kept for its indices where the cache can. */
function groupedRows(cache: StructureCache, sp: SparseData, rowDim: 0 | 1, rows: number) {
  const s = cache.of(sp.indices as object, `rows:${rowDim}:${rows}:${sp.shape.join(',')}`, () => {
    const { rowPtr, col, to, longest } = rowOrder(sp, rowDim, rows);
    return { host: longest, arrays: { rowPtr, col, to } };
  });
  return { ...s.arrays, longest: s.host };
}

function reduceAtOnce(
  ctx: WebGpuContext,
  prepared: PreparedArrays,
  cache: StructureCache,
  src: WebGpuFamilySource,
  js: JsKernel,
): AtOnceKernel {
  return (args) => {
    const sp = args[src.roles.sparse!] as SparseData;
    const axes = args[src.roles.axes!] as number[] | null;
    const keepdims = args[src.roles.keepdims!] as boolean;
    const layout = reduceLayout(cache, sp, axes, keepdims, src.outputKind);
    const plan = layout.host;
    const g = plan.groups;
    const out: OutputShape = {
      name: src.output,
      dtype: sp.dtype as GpuDtype,
      length: g,
      // A sparse output's indices are its own: the kept plan's are copied.
      wrap: (values) =>
        src.outputKind === 'dense'
          ? { kind: 'dense', data: values as Values, shape: plan.shape.slice(), dtype: sp.dtype }
          : {
              kind: 'sparse',
              indices: plan.indices!.slice(),
              values: values as Values,
              shape: plan.shape.slice(),
              dtype: sp.dtype,
            },
    };
    const x = operand(sp.values as Values | DeviceArray, prepared);
    const kernel = kernelFor(src, sp.dtype);
    if ('reason' in kernel) return elsewhere(ctx, js, args, [out], [x], kernel.reason);
    const scalars = scalarsOf(src, args, out.dtype);
    const n = sp.values.length;
    const longest = plan.longest;
    const f = src.float32;
    const s = screening(out.dtype, [x], scalars, (ms) => [
      groupBound(M, {
        init: f.init!,
        combine: f.combine!,
        finalize: f.finalize!,
        x: ms[0],
        scalars: Array.from(scalars, M.lit),
        longest,
        includeZeros: !!src.includeZeros,
        count: M.span(1, longest),
      }),
    ]);
    if ('reason' in s) return elsewhere(ctx, js, args, [out], [x], s.reason);
    // A group with no entries is computed by the kernel too (0, or its zeros): only an empty input needs none.
    if (g === 0 || n === 0 || !ctx.fits(4 * g) || !ctx.fits(4 * n))
      return elsewhere(ctx, js, args, [out], [x], REASONS.bindingLimit(ctx.maxBindingBytes));
    if (ctx.roomLeft() < 0) return elsewhere(ctx, js, args, [out], [x], REASONS.deviceBudget(ctx.heldBytes));
    // Each group's values laid out together in entry order, on the GPU.
    const { start, cnt, to } = layout.arrays;
    const word = Math.min(plan.groupSize, U32_MAX);
    const laid = laidOut(ctx, x, to, n, out.dtype);
    const inputs = [params(g, word, scalars), laid, start, cnt];
    const values = record(ctx, kernel.wgsl, g, inputs, out, boundOf(s), { js, args });
    return { [out.name]: out.wrap(values) };
  };
}

/**
 * `n` values laid out at `to`, as an operand of the next pass: on the host where both are there, else on the GPU (the
 * values uploaded where they are in host memory, `to` where it is).
 */
function laidOut(ctx: WebGpuContext, x: Operand, to: Uint32Array | OnGpu, n: number, dtype: GpuDtype): Operand {
  if ('host' in x && ArrayBuffer.isView(to)) {
    const out = dtype === 'float32' ? new Float32Array(n) : new Int32Array(n);
    for (let i = 0; i < n; i++) out[to[i]] = x.host[i];
    return { host: out };
  }
  const laid = ctx.buffer(4 * n);
  const p = ctx.upload(Uint32Array.of(n));
  const transient = [p, laid];
  const bind = (b: Uint32Array | GpuValues | OnGpu) =>
    ArrayBuffer.isView(b) ? (transient.push(ctx.upload(b)), transient.at(-1)!) : b.buffer;
  const from = 'host' in x ? bind(x.host) : (x as { buffer: GPUBuffer }).buffer;
  ctx.dispatch({ code: SCATTER, buffers: [p, from, bind(to), laid], threads: n });
  ctx.releaseAfterSubmit(...transient);
  return { buffer: laid, bound: undefined, screened: true };
}

/** sparse_tensor_dense_matmul: S·D (or D·S) one output element per invocation, as the asynchronous kernel. */
function spmmAtOnce(ctx: WebGpuContext, prepared: PreparedArrays, cache: StructureCache, js: JsKernel): AtOnceKernel {
  return (args) => {
    const { sparseFirst, sp, dn, swapSparse, transposeDense, m, n } = matmulPlan(args as never);
    const dtype = sp.dtype as GpuDtype;
    const shape = sparseFirst ? [m, n] : [n, m];
    const out: OutputShape = {
      name: 'output',
      dtype,
      length: m * n,
      wrap: (values) => ({ kind: 'dense', data: values as Values, shape, dtype }),
    };
    const [a, b] = [
      operand(sp.values as Values | DeviceArray, prepared),
      operand(dn.data as Values | DeviceArray, prepared),
    ];
    if (dtype !== 'float32' && dtype !== 'int32')
      return elsewhere(ctx, js, args, [out], [a, b], REASONS.notComputed(dtype));
    const order = groupedRows(cache, sp, swapSparse ? 1 : 0, m);
    // Each element sums up to `longest` products, in row order.
    const s = screening(dtype, [a, b], new Float32Array(0), (ms) => [sumOfProducts(ms[0], ms[1], order.longest)]);
    if ('reason' in s) return elsewhere(ctx, js, args, [out], [a, b], s.reason);
    const nnz = sp.values.length;
    const [dRows, dCols] = dn.shape;
    const fits = [m * n * 4, (m + 1) * 4, nnz * 4, dRows * dCols * 4].every((x) => ctx.fits(x));
    if (m * n === 0 || nnz === 0 || !fits || [m, n, dRows, dCols].some((d) => d > INT32_MAX))
      return elsewhere(ctx, js, args, [out], [a, b], REASONS.bindingLimit(ctx.maxBindingBytes));
    if (ctx.roomLeft() < 0) return elsewhere(ctx, js, args, [out], [a, b], REASONS.deviceBudget(ctx.heldBytes));
    const [sk, sj] = strides(dCols, transposeDense);
    const p = Uint32Array.of(m, n, sk, sj, sparseFirst ? 0 : 1, m * n);
    const val = laidOut(ctx, a, order.to, nnz, dtype);
    const inputs = [p, order.rowPtr, order.col, val, b];
    const values = record(ctx, spmmSource(dtype), m * n, inputs, out, boundOf(s), { js, args });
    return { output: out.wrap(values) };
  };
}

/**
 * sparse_tensor_dense_matmul_grad, float32, as the asynchronous kernel computes it and its results left on the GPU:
 * with Q = S·D (matmulPlan) and GQ its gradient (grad, read transposed where the sparse operand is second), each
 * stored value's gradient GQ[row] · D[col] (one invocation an entry, in column order), and D's gradient Sᵀ·GQ (the
 * SpMM with S grouped by its other coordinate, written transposed where D is read transposed).
 */
function spmmGradAtOnce(
  ctx: WebGpuContext,
  prepared: PreparedArrays,
  cache: StructureCache,
  js: JsKernel,
): AtOnceKernel {
  return (args) => {
    const { sparseFirst, sp, dn, swapSparse, transposeDense, m, n } = matmulPlan(args as never);
    const grad = args.grad as DenseData;
    const dtype = sp.dtype as GpuDtype;
    const nnz = sp.values.length;
    const [dRows, dCols] = dn.shape;
    const k = transposeDense ? dCols : dRows;
    const [valuesName, denseName] = sparseFirst ? ['sp_a_grad', 'b_grad'] : ['b_grad', 'sp_a_grad'];
    const valuesOut: OutputShape = {
      name: valuesName,
      dtype,
      length: nnz,
      wrap: (values) => ({ kind: 'dense', data: values as Values, shape: [nnz], dtype }),
    };
    const denseOut: OutputShape = {
      name: denseName,
      dtype,
      length: dRows * dCols,
      wrap: (values) => ({ kind: 'dense', data: values as Values, shape: [...dn.shape], dtype }),
    };
    const ops = [sp.values, dn.data, grad.data].map((v) => operand(v as Values | DeviceArray, prepared));
    const away = (reason: string) => elsewhere(ctx, js, args, [valuesOut, denseOut], ops, reason);
    if (dtype !== 'float32') return away(REASONS.notComputed(dtype));
    const bytes = [nnz * 8, dRows * dCols * 4, m * n * 4, (k + 1) * 4];
    if (nnz === 0 || dRows * dCols === 0 || !bytes.every((b) => ctx.fits(b)) || [m, n, k].some((d) => d > INT32_MAX))
      return away(REASONS.bindingLimit(ctx.maxBindingBytes));
    if (ctx.roomLeft() < 0) return away(REASONS.deviceBudget(ctx.heldBytes));
    const order = groupedRows(cache, sp, swapSparse ? 0 : 1, k);
    // A value's gradient sums n products of grad and the dense operand; the dense one's, of the values and grad.
    const s = screening(dtype, ops, new Float32Array(0), (ms) => [
      sumOfProducts(ms[2], ms[1], n),
      sumOfProducts(ms[0], ms[2], order.longest),
    ]);
    if ('reason' in s) return away(s.reason);
    const [a, d, g] = ops;
    // GQ [m × n]: grad itself when the sparse operand is first, else grad ([n, m]) read transposed.
    const [gr, gj] = strides(sparseFirst ? n : m, !sparseFirst);
    const [dc, dj] = strides(dCols, transposeDense);
    const [ri, ci] = swapSparse ? [1, 0] : [0, 1];
    const rc = new Uint32Array(2 * nnz);
    for (let e = 0; e < nnz; e++) {
      rc[2 * e] = sp.indices[2 * e + ri];
      rc[2 * e + 1] = sp.indices[2 * e + ci];
    }
    const recipe = { js, args };
    const sampled = Uint32Array.of(nnz, n, gr, gj, dc, dj);
    const values = record(ctx, sampledSource(dtype), nnz, [sampled, rc, g, d], valuesOut, boundOf(s, 0), recipe);
    const p = Uint32Array.of(k, n, gr, gj, transposeDense ? 1 : 0, k * n);
    const val = laidOut(ctx, a, order.to, nnz, dtype);
    const inputs = [p, order.rowPtr, order.col, val, g];
    const dense = record(ctx, spmmSource(dtype), k * n, inputs, denseOut, boundOf(s, 1), recipe);
    return { [valuesName]: valuesOut.wrap(values), [denseName]: denseOut.wrap(dense) };
  };
}

/**
 * How a call that cannot record its work on the GPU runs: on the JS kernels now, or, where an input is not in host
 * memory, each output made there when read.
 */
export function elsewhere(
  ctx: WebGpuContext,
  js: JsKernel,
  args: Args,
  outs: OutputShape[],
  ops: Operand[],
  reason: string,
): KernelResult<Args> {
  if (ops.every((o) => 'host' in o)) return delegate(js, args, reason);
  return Object.fromEntries(
    outs.map((o) => [o.name, o.wrap(DeviceArray.deferred(ctx, o.dtype, o.length, { js, args, output: o.name }))]),
  );
}

/** The ops whose calls run at once on the GPU, their results left there: map, cwise and reduce, SpMM and its gradient. */
export function atOnceKernels(
  ctx: WebGpuContext,
  prepared: PreparedArrays,
  cache: StructureCache,
  js: Record<string, JsKernel>,
): Record<string, AtOnceKernel> {
  const out: Record<string, AtOnceKernel> = {
    sparse_tensor_dense_matmul: spmmAtOnce(ctx, prepared, cache, js.sparse_tensor_dense_matmul),
    sparse_tensor_dense_matmul_grad: spmmGradAtOnce(ctx, prepared, cache, js.sparse_tensor_dense_matmul_grad),
  };
  for (const [op, src] of Object.entries(WEBGPU_FAMILIES)) {
    if (!js[op]) continue;
    if (src.family === 'map' || src.family === 'cwise') out[op] = entrywiseAtOnce(ctx, prepared, cache, src, js[op]);
    else if (src.family === 'reduce') out[op] = reduceAtOnce(ctx, prepared, cache, src, js[op]);
  }
  return out;
}
