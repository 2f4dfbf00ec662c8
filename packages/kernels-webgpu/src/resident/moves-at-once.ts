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
}

const SPARSE_OUT = { output: 'sparse' } as const;
const MOVES: Record<string, Moves> = {
  sparse_reorder: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_transpose: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_reshape: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_slice: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_retain: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_expand_dims: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_reset_shape: { input: 'sp_input', outputs: SPARSE_OUT },
  sparse_fill_empty_rows: { input: 'sp_input', fill: 'default_value', outputs: SPARSE_OUT },
  sparse_tensor_to_dense: { input: 'sp_input', fill: 'default_value', outputs: { output: 'dense' } },
  sparse_split: { input: 'sp_input', outputs: { output: 'sparse_list' } },
  sparse_concat: { input: 'sp_inputs', list: true, outputs: SPARSE_OUT },
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

/** The u32 word of a float32 or int32 value. */
function wordOf(dtype: GpuDtype, v: number): number {
  return new Uint32Array((dtype === 'float32' ? Float32Array : Int32Array).of(v).buffer)[0];
}

function movesAtOnce(ctx: WebGpuContext, prepared: PreparedArrays, m: Moves, js: JsKernel): AtOnceKernel {
  return (args) => {
    const given = args[m.input];
    const inputs = (m.list ? given : [given]) as SparseData[];
    const dtype = inputs[0]?.dtype as GpuDtype;
    const ops = inputs.map((sp) => operand(sp.values as Values | DeviceArray, prepared));
    // Nothing on the GPU: the JS kernels, at once, as before.
    if (ops.every((o) => 'host' in o)) return delegate(js, args, REASONS.atOnce);
    if (dtype !== 'float32' && dtype !== 'int32') return delegate(js, args, REASONS.notComputed(dtype));
    // The structure: each value its entry's number across the inputs, the fill -1.
    let base = 0;
    const numbered: Args = { ...args };
    const withIds = inputs.map((sp) => {
      const ids = Float64Array.from({ length: sp.values.length }, (_, e) => base + e);
      base += ids.length;
      return { ...sp, values: ids, dtype: 'float64' } as SparseData;
    });
    numbered[m.input] = m.list ? withIds : withIds[0];
    if (m.fill) numbered[m.fill] = -1;
    const structure = js(numbered) as Args;
    const fill = m.fill ? Number(args[m.fill]) : 0;
    // What a result holds is what its inputs held, and the fill: their bounds joined.
    // (Unknown where a host value is inf, nan or a subnormal: the next op that computes then runs on the JS kernels.)
    const normal = (v: GpuValues) => !(v instanceof Float32Array) || allNormal(v);
    let bound: M.Maybe = M.lit(m.fill && Number.isFinite(fill) ? fill : 0);
    if (m.fill && !Number.isFinite(fill)) bound = undefined;
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
    const made = (name: string, ids: Float64Array, item?: number): DeviceArray => {
      const n = ids.length;
      const out: OutputShape = { name, dtype, length: n, wrap: () => undefined as never };
      const recipe = { js, args, item };
      if (!source || n === 0 || !ctx.fits(4 * n) || ctx.roomLeft() < 0)
        return DeviceArray.deferred(ctx, dtype, n, { ...recipe, output: name });
      const map = Int32Array.from(ids);
      const inputsOf: (Operand | Uint32Array | Int32Array)[] = [Uint32Array.of(n, wordOf(dtype, fill)), source, map];
      const b = screened ? (dtype === 'float32' ? bound : undefined) : false;
      return record(ctx, GATHER, n, inputsOf as never, out, b, recipe, { scratch: [], moves: true });
    };
    const result: Args = { ...structure };
    for (const [name, kind] of Object.entries(m.outputs)) {
      const part = structure[name];
      if (kind === 'dense') {
        const d = part as DenseData;
        result[name] = { ...d, data: made(name, d.data as Float64Array), dtype };
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
  js: Record<string, JsKernel>,
): Record<string, AtOnceKernel> {
  const out: Record<string, AtOnceKernel> = {};
  for (const [op, m] of Object.entries(MOVES)) if (js[op]) out[op] = movesAtOnce(ctx, prepared, m, js[op]);
  return out;
}
