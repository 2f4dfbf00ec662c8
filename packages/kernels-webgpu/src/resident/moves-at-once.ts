/// <reference types="@webgpu/types" />
import {
  delegate,
  magnitude as M,
  magnitudesOf,
  type DenseData,
  type KernelResult,
  type SparseData,
  type Values,
} from '@sparse/kernel-abi';
import { ENTRY, type WebGpuContext } from '../context.js';
import { allNormal, REASONS } from '../delegation.js';
import type { GpuDtype, GpuValues } from '../families/run.js';
import type { Args, JsKernel } from '../kernel.js';
import { DeviceArray } from './device-array.js';
import type { PreparedArrays } from './prepared.js';
import { operand, record, type AtOnceKernel, type Operand, type OutputShape } from './at-once.js';
import type { StructureCache } from './structure-cache.js';

/**
 * The structural ops that only move values (reorder, transpose, reshape, slice, retain, split, concat, to dense,
 * fill empty rows…), called at once where their values live on the GPU: the structure is the JS kernel's own, run on
 * the host with each value replaced by its entry's number (the kernel moves those as it moves values, so its output
 * says where each output value comes from), and the GPU gathers the values by that map, word for word, into a result
 * left there. A value nowhere in the input (a default) is the op's fill. The indices stay in host memory, as every
 * tensor's do. Where no input value is on the GPU, the call runs on the JS kernels as before.
 */
interface Moves {
  /** The argument whose values move: a SparseTensor, or (list) a list of them. */
  input: string;
  list?: boolean;
  /** The scalar argument written where no input value lands. */
  fill?: string;
  /** The outputs made of moved values, by kind; any other output is the JS kernel's, as it is. */
  outputs: Record<string, 'sparse' | 'dense' | 'sparse_list'>;
  /** Whether the structure depends on more than the input's indices and the scalar arguments (a mask, other inputs). */
  uncached?: boolean;
}

const SPARSE_OUT = { output: 'sparse' } as const;
const MOVES: Record<string, Moves> = {
  sparse_reorder: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_transpose: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_reshape: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_slice: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_retain: { input: 'sp_input', outputs: SPARSE_OUT, uncached: true },
  sparse_expand_dims: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_reset_shape: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_fill_empty_rows: { input: 'sp_input', fill: 'default_value', outputs: SPARSE_OUT },
  sparse_tensor_to_dense: { input: 'sp_input', fill: 'default_value', outputs: { output: 'dense' } },
  sparse_split: { input: 'sp_input', outputs: { output: 'sparse_list' } },
  sparse_concat: { input: 'sp_inputs', list: true, outputs: SPARSE_OUT, uncached: true },
};

/** out[i] = x[map[i]], or the fill's word where map[i] is -1. p = [n, fill word]. */
const GATHER = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read> map: array<i32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let m = map[i];
  if (m < 0) { out[i] = p[1]; } else { out[i] = x[u32(m)]; }
}
`;

/** What a kept structure depends on besides the input's indices: the op's other arguments but the fill, the shape. */
function keyOf(m: Moves, args: Args, sp: SparseData): string {
  const rest = Object.entries(args).filter(([k]) => k !== m.input && k !== m.fill);
  return `move:${m.input}:${JSON.stringify(rest)}:${sp.shape.join(',')}:${Object.keys(m.outputs).join(',')}`;
}

/** The u32 word of a float32 or int32 value. */
function wordOf(dtype: GpuDtype, v: number): number {
  return new Uint32Array((dtype === 'float32' ? Float32Array : Int32Array).of(v).buffer)[0];
}

/** The parts of an op's output made of moved values, in order: each a sparse output's values or a dense one's data. */
function movedParts(m: Moves, structure: Args): Float64Array[] {
  return Object.entries(m.outputs).flatMap(([name, kind]) => {
    const part = structure[name];
    if (kind === 'dense') return [(part as DenseData).data as Float64Array];
    if (kind === 'sparse') return [(part as SparseData).values as Float64Array];
    return (part as SparseData[]).map((s) => s.values as Float64Array);
  });
}

/**
 * A kernel output's arrays copied (a sparse one's indices: its values are replaced), so that a structure kept for the
 * next call is never handed out: a tensor's buffers are its own.
 */
function copied<T>(x: T): T {
  if (Array.isArray(x)) return x.map(copied) as T;
  const d = x as SparseData | DenseData;
  if (d?.kind === 'sparse') return { ...d, indices: d.indices.slice(), shape: d.shape.slice() } as T;
  if (d?.kind === 'dense') return { ...d, data: d.data.slice(), shape: d.shape.slice() } as T;
  return x;
}

function movesAtOnce(
  ctx: WebGpuContext,
  prepared: PreparedArrays,
  cache: StructureCache,
  m: Moves,
  js: JsKernel,
): AtOnceKernel {
  return (args) => {
    const given = args[m.input];
    const inputs = (m.list ? given : [given]) as SparseData[];
    const dtype = inputs[0]?.dtype as GpuDtype;
    const ops = inputs.map((sp) => operand(sp.values as Values | DeviceArray, prepared));
    // Nothing on the GPU: the JS kernels, at once, as before.
    if (ops.every((o) => 'host' in o)) return delegate(js, args, REASONS.atOnce);
    if (dtype !== 'float32' && dtype !== 'int32') return delegate(js, args, REASONS.notComputed(dtype));
    // The structure: each value its entry's number across the inputs, the fill -1; kept for an input seen again.
    const base = inputs.reduce((n, sp) => n + sp.values.length, 0);
    const make = () => {
      let at = 0;
      const numbered: Args = { ...args };
      const withIds = inputs.map((sp) => {
        const ids = Float64Array.from({ length: sp.values.length }, (_, e) => at + e);
        at += ids.length;
        return { ...sp, values: ids, dtype: 'float64' } as SparseData;
      });
      numbered[m.input] = m.list ? withIds : withIds[0];
      if (m.fill) numbered[m.fill] = -1;
      const made = js(numbered) as Args;
      const arrays = Object.fromEntries(
        movedParts(m, made).map((ids, k) => [`map${k}`, new Uint32Array(Int32Array.from(ids).buffer)]),
      );
      return { host: made, arrays };
    };
    const kept = m.uncached ? make() : cache.of(inputs[0].indices as object, keyOf(m, args, inputs[0]), make);
    const structure = kept.host;
    const maps = Object.values(kept.arrays);
    const fill = m.fill ? Number(args[m.fill]) : 0;
    // What a result holds is what its inputs held, and the fill: their bounds joined.
    // (Unknown where a host value is inf, nan or a subnormal: the next op that computes then runs on the JS kernels.)
    const normal = (v: GpuValues) => !(v instanceof Float32Array) || allNormal(v);
    let bound: M.Maybe = !m.fill ? M.lit(0) : Number.isFinite(fill) ? M.lit(fill) : undefined;
    for (const o of ops) {
      const b = 'host' in o ? (normal(o.host) ? magnitudesOf(o.host) : undefined) : 'bound' in o ? o.bound : undefined;
      bound = bound && b && M.join(bound, b);
    }
    const screened = ops.every((o) => !('buffer' in o) || o.screened);
    const deferred = ops.some((o) => 'deferred' in o) || !ctx.fits(4 * Math.max(base, 1));
    const source = deferred
      ? undefined
      : gathered(
          ctx,
          ops,
          inputs.map((sp) => sp.values.length),
        );
    // The moved parts come in movedParts' order: each takes the next map.
    let next = 0;
    const made = (name: string, ids: Float64Array, item?: number): DeviceArray => {
      const n = ids.length;
      const map = maps[next++];
      const out: OutputShape = { name, dtype, length: n, wrap: () => undefined as never };
      const recipe = { js, args, item };
      if (!source || n === 0 || !ctx.fits(4 * n) || ctx.roomLeft() < 0)
        return DeviceArray.deferred(ctx, dtype, n, { ...recipe, output: name });
      const inputsOf = [Uint32Array.of(n, wordOf(dtype, fill)), source, map];
      const b = screened ? (dtype === 'float32' ? bound : undefined) : false;
      return record(ctx, GATHER, n, inputsOf as never, out, b, recipe, { scratch: [], moves: true });
    };
    const result: Args = {};
    for (const [name, part] of Object.entries(structure)) if (!(name in m.outputs)) result[name] = copied(part);
    for (const [name, kind] of Object.entries(m.outputs)) {
      const part = kind === 'dense' ? structure[name] : copied(structure[name]);
      if (kind === 'dense') {
        const d = part as DenseData;
        result[name] = { ...d, data: made(name, d.data as Float64Array), shape: d.shape.slice(), dtype };
      } else if (kind === 'sparse') {
        const s = part as SparseData;
        result[name] = { ...s, values: made(name, s.values as Float64Array), dtype };
      } else
        result[name] = (part as SparseData[]).map((s, k) => ({
          ...s,
          values: made(name, s.values as Float64Array, k),
          dtype,
        }));
    }
    if (source && 'buffer' in source && ops.length > 1) ctx.releaseAfterSubmit(source.buffer);
    return result as KernelResult<Args>;
  };
}

/**
 * The inputs' values (`counts` of them) as one operand: the one input as it is, or the inputs' words one after
 * another in one buffer on the GPU.
 */
function gathered(ctx: WebGpuContext, ops: Operand[], counts: number[]): Operand {
  if (ops.length === 1) return ops[0];
  const all = ctx.buffer(
    4 *
      Math.max(
        counts.reduce((a, b) => a + b, 0),
        1,
      ),
  );
  let at = 0;
  ops.forEach((o, k) => {
    const src = 'host' in o ? ctx.upload(o.host) : (o as { buffer: GPUBuffer }).buffer;
    ctx.copyInto(src, 0, all, 4 * at, 4 * counts[k]);
    if ('host' in o) ctx.releaseAfterSubmit(src);
    at += counts[k];
  });
  return { buffer: all, bound: undefined, screened: true };
}

/** The moving ops run at once where their values are on the GPU; the rest of what they return, as the JS kernels do. */
export function moveAtOnceKernels(
  ctx: WebGpuContext,
  prepared: PreparedArrays,
  cache: StructureCache,
  js: Record<string, JsKernel>,
): Record<string, AtOnceKernel> {
  const out: Record<string, AtOnceKernel> = {};
  for (const [op, m] of Object.entries(MOVES)) if (js[op]) out[op] = movesAtOnce(ctx, prepared, cache, m, js[op]);
  return out;
}
