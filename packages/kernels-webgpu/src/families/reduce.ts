import { delegate, reducePlan } from '@sparse/kernel-abi';
import type { DenseData, KernelResult, SparseData } from '@sparse/kernel-abi';
import type { WebGpuContext } from '../context.js';
import { REASONS } from '../delegation.js';
import type { WebGpuFamilySource } from '../generated/families.js';
import type { Args, JsKernel, Kernel } from '../kernel.js';
import {
  inputsOk,
  kernelFor,
  mayBeSubnormal,
  params,
  resultBad,
  runPass,
  scalarsOf,
  valuesIn,
  type GpuDtype,
  type GpuValues,
} from './run.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/** The most a u32 holds: a group's dense positions past it compare as this (no group holds that many entries). */
export const U32_MAX = 0xffffffff;

/**
 * Where a reduction's groups lie once their values are laid out together in entry order (a stable counting sort):
 * each group's start and count, and where each entry goes (`to`).
 */
export function groupLayout(plan: { groups: number; count: ArrayLike<number>; group: ArrayLike<number> }) {
  const g = plan.groups;
  const start = new Uint32Array(g);
  const cnt = Uint32Array.from(plan.count);
  for (let s = 1; s < g; s++) start[s] = start[s - 1] + cnt[s - 1];
  const fill = start.slice();
  const to = new Uint32Array(plan.group.length);
  for (let i = 0; i < to.length; i++) to[i] = fill[plan.group[i]]++;
  return { start, cnt, to };
}

/**
 * A reduce op on the GPU: the host groups the entries with the JS backend's shared plan and lays each group's
 * values out contiguously (a stable counting sort: a group keeps its entries' order, so the GPU combines them in
 * the JS kernel's order and float32 sums round alike), as a start and a count per group; one thread per group
 * loops over its entries (init, combine, the implicit zeros where the op includes them, finalize).
 */
export function reduceKernel(ctx: WebGpuContext, src: WebGpuFamilySource, js: JsKernel): Kernel {
  return async (args: Args): Promise<KernelResult<Args>> => {
    const sp = args[src.roles.sparse!] as SparseData;
    const kernel = kernelFor(src, sp.dtype);
    if ('reason' in kernel) return delegate(js, args, kernel.reason);
    const dtype = sp.dtype as GpuDtype;
    const x = sp.values as GpuValues;
    const scalars = scalarsOf(src, args, dtype);
    if (!inputsOk(dtype, x, scalars)) return delegate(js, args, REASONS.nonFinite);
    const axes = args[src.roles.axes!] as number[] | null;
    const keepdims = args[src.roles.keepdims!] as boolean;
    const plan = reducePlan(sp, axes, keepdims, src.outputKind);
    const n = x.length;
    const g = plan.groups;
    if (!ctx.fits(4 * g) || !ctx.fits(4 * n)) throw new BindingLimitError(ctx.maxBindingBytes);
    let longest = 0;
    for (let s = 0; s < g; s++) longest = Math.max(longest, plan.count[s]);
    if (mayBeSubnormal(src, dtype, [x], scalars, longest)) return delegate(js, args, REASONS.subnormal);
    let values: GpuValues = valuesIn(dtype, new ArrayBuffer(4 * g));
    if (g > 0 && n > 0) {
      const { start, cnt, to } = groupLayout(plan);
      const xv = dtype === 'float32' ? new Float32Array(n) : new Int32Array(n);
      for (let i = 0; i < n; i++) xv[to[i]] = x[i];
      const word = Math.min(plan.groupSize, U32_MAX);
      const out = await runPass(ctx, kernel.wgsl, g, [params(g, word, scalars), xv, start, cnt, { bytes: 4 * g }], [4]);
      values = valuesIn(dtype, out[0]);
      if (resultBad(dtype, values)) return delegate(js, args, REASONS.nonFiniteResult);
    }
    // No stored entry: every group (dense output) is 0, as the JS kernel gives; a sparse output has none.
    const output: SparseData | DenseData =
      src.outputKind === 'dense'
        ? { kind: 'dense', data: values, shape: plan.shape, dtype: sp.dtype }
        : { kind: 'sparse', indices: plan.indices!, values, shape: plan.shape, dtype: sp.dtype };
    return { [src.output]: output };
  };
}
