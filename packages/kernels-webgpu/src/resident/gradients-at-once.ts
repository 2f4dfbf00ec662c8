/// <reference types="@webgpu/types" />
import {
  broadcastOffsets,
  magnitude as M,
  reducePlan,
  type DenseData,
  type SparseData,
  type Values,
} from '@sparse/kernel-abi';
import type { WebGpuContext } from '../context.js';
import { REASONS } from '../delegation.js';
import { bitsOf, reduceGradientBound, scalarsOf } from '../families/chain-gradients.js';
import { params } from '../families/run.js';
import { sumOfParts } from '../families/sum-bound.js';
import {
  WEBGPU_GRADIENTS,
  type WebGpuGradientSource,
  type WebGpuReduceGradientSource,
} from '../generated/gradients.js';
import type { JsKernel } from '../kernel.js';
import { groupBy } from '../segments/plan.js';
import type { DeviceArray } from './device-array.js';
import type { PreparedArrays } from './prepared.js';
import { boundOf, elsewhere, operand, record, screening, type AtOnceKernel, type OutputShape } from './at-once.js';

/** A float32 gradient of `length` values, as an at-once kernel's output. */
function gradientOut(name: string, length: number, shape: number[]): OutputShape {
  return {
    name,
    dtype: 'float32',
    length,
    wrap: (values) => ({ kind: 'dense', data: values as Values, shape, dtype: 'float32' }),
  };
}

/**
 * A map or cwise op's derived gradient at once, as the asynchronous kernel computes it (families/gradients.ts), its
 * results left on the GPU: each stored value's part, one thread an entry; a cwise op's dense operand's, per element
 * the sum of its entries' parts in entry order (listed on the host by a stable counting sort).
 */
function valuesGradientAtOnce(
  ctx: WebGpuContext,
  prepared: PreparedArrays,
  src: WebGpuGradientSource,
  js: JsKernel,
): AtOnceKernel {
  return (args) => {
    const sp = args[src.roles.sparse!] as SparseData;
    const dense = src.roles.dense ? (args[src.roles.dense] as DenseData) : undefined;
    const grad = args.grad as DenseData;
    const n = sp.values.length;
    const size = dense?.data.length ?? 0;
    const valuesOut = gradientOut(src.outputs.sparse, n, [n]);
    const denseOut = dense ? gradientOut(src.outputs.dense!, size, dense.shape.slice()) : undefined;
    const outs = denseOut ? [valuesOut, denseOut] : [valuesOut];
    const ops = [sp.values, ...(dense ? [dense.data] : []), grad.data].map((v) =>
      operand(v as Values | DeviceArray, prepared),
    );
    const away = (reason: string) => elsewhere(ctx, js, args, outs, ops, reason);
    if (sp.dtype !== 'float32') return away(REASONS.notComputed(sp.dtype));
    if ('not' in src.wgsl) return away(REASONS.float32NotWgsl(src.wgsl.not));
    const scalars = scalarsOf(src.roles.scalars, args);
    if (grad.dtype !== 'float32' || grad.data.length !== n || !scalars) return away(REASONS.unchecked);
    if (n === 0 || !ctx.fits(4 * n) || !ctx.fits(4 * Math.max(size, 1)))
      return away(REASONS.bindingLimit(ctx.maxBindingBytes));
    if (ctx.roomLeft() < 0) return away(REASONS.deviceBudget(ctx.heldBytes));
    const off = dense ? Uint32Array.from(broadcastOffsets(sp, dense.shape)) : undefined;
    // The entries at each dense element, in entry order.
    const groups =
      off &&
      groupBy(
        off,
        size,
        Uint32Array.from({ length: n }, (_, i) => i),
      );
    const f = src.float32;
    // The magnitudes run: the operands (map: x; cwise: a, b), grad, then the scalars.
    const s = screening('float32', ops, scalars, (ms) => {
      const all = [...ms, ...Array.from(scalars, M.lit)];
      const part = f.x ?? f.a;
      const values = part ? part(...all) : M.lit(0);
      return dense ? [values, sumOfParts(f.b!(...all), groups!.longest)] : [values];
    });
    if ('reason' in s) return away(s.reason);
    const recipe = { js, args };
    const wgsl = src.wgsl;
    const [x, b, g] = dense ? ops : [ops[0], undefined, ops[1]];
    const P = params(n, 0, scalars);
    if (!dense)
      return {
        [valuesOut.name]: valuesOut.wrap(record(ctx, wgsl.values, n, [P, x, g], valuesOut, boundOf(s), recipe)),
      };
    const values = record(ctx, wgsl.values, n, [P, x, b!, off!, g], valuesOut, boundOf(s, 0), recipe);
    const inputs = [params(size, 0, scalars), x, b!, g, groups!.start, groups!.item];
    const denseGrad = record(ctx, wgsl.dense!, size, inputs, denseOut!, boundOf(s, 1), recipe);
    return { [valuesOut.name]: valuesOut.wrap(values), [denseOut!.name]: denseOut!.wrap(denseGrad) };
  };
}

/**
 * A reduce op's derived gradient at once, as the asynchronous kernel computes it (families/chain-gradients.ts): one
 * thread a group, its steps forward from the accumulator's start and back from the group's grad. A max's or min's
 * group whose maximum more than one value holds sets the flag the screen sets, so that it is made on the JS kernels
 * when read (TensorFlow divides its grad among them).
 */
function reduceGradientAtOnce(
  ctx: WebGpuContext,
  prepared: PreparedArrays,
  src: WebGpuReduceGradientSource,
  js: JsKernel,
): AtOnceKernel {
  return (args) => {
    const sp = args[src.roles.sparse!] as SparseData;
    const grad = args.grad as DenseData;
    const n = sp.values.length;
    const out = gradientOut(src.outputs.sparse, n, [n]);
    const ops = [sp.values, grad.data].map((v) => operand(v as Values | DeviceArray, prepared));
    const away = (reason: string) => elsewhere(ctx, js, args, [out], ops, reason);
    if (sp.dtype !== 'float32') return away(REASONS.notComputed(sp.dtype));
    if ('not' in src.wgsl) return away(REASONS.float32NotWgsl(src.wgsl.not));
    const scalars = scalarsOf(src.roles.scalars, args);
    const axes = args[src.roles.axes!] as number[] | null;
    const keepdims = args[src.roles.keepdims!] as boolean;
    const plan = reducePlan(sp, axes, keepdims, src.output === 'dense' ? 'dense' : 'sparse');
    if (grad.dtype !== 'float32' || grad.data.length !== plan.groups || !scalars) return away(REASONS.unchecked);
    if (n === 0 || !ctx.fits(4 * n) || !ctx.fits(4 * (plan.groups + 1)))
      return away(REASONS.bindingLimit(ctx.maxBindingBytes));
    if (ctx.roomLeft() < 0) return away(REASONS.deviceBudget(ctx.heldBytes));
    const groups = groupBy(
      plan.group,
      plan.groups,
      Uint32Array.from({ length: n }, (_, i) => i),
    );
    const s = screening('float32', ops, scalars, ([xm, gm]) => [
      reduceGradientBound(src, xm, gm, scalars, groups.longest),
    ]);
    if ('reason' in s) return away(s.reason);
    const [x, g] = ops;
    const tied = src.selects ? ctx.buffer(4) : undefined;
    const scratch = [...(src.readsAcc ? [ctx.buffer(4 * n)] : []), ...(tied ? [tied] : [])];
    const inputs = [params(plan.groups, bitsOf(src.init), scalars), x, groups.start, groups.item, g];
    const values = record(
      ctx,
      src.wgsl.values,
      plan.groups,
      inputs,
      out,
      boundOf(s),
      { js, args },
      { scratch, flag: tied },
    );
    return { [out.name]: out.wrap(values) };
  };
}

/** The derived gradients of the map, cwise and reduce ops, run at once on the GPU, their results left there. */
export function gradientAtOnceKernels(
  ctx: WebGpuContext,
  prepared: PreparedArrays,
  js: Record<string, JsKernel>,
): Record<string, AtOnceKernel> {
  const out: Record<string, AtOnceKernel> = {};
  for (const [op, src] of Object.entries(WEBGPU_GRADIENTS)) {
    if (!js[op]) continue;
    if (src.family === 'map' || src.family === 'cwise') out[op] = valuesGradientAtOnce(ctx, prepared, src, js[op]);
    else if (src.family === 'reduce') out[op] = reduceGradientAtOnce(ctx, prepared, src, js[op]);
  }
  return out;
}
