/// <reference types="@webgpu/types" />
import {
  broadcastOffsets,
  delegate,
  magnitude as M,
  magnitudesOf,
  mergePlan,
  reducePlan,
  type DenseData,
  type KernelResult,
  type MagnitudeFn,
  type SparseData,
} from '@sparse/kernel-abi';
import type { WebGpuContext } from '../context.js';
import { REASONS } from '../delegation.js';
import { WEBGPU_FAMILIES } from '../generated/families.js';
import type { WebGpuMergeGradientSource, WebGpuReduceGradientSource } from '../generated/gradients.js';
import type { Args, JsKernel, Kernel } from '../kernel.js';
import { groupBy } from '../segments/plan.js';
import { recordScan } from '../structural/scan.js';
import { inputsOk, mayBeSubnormal, params, resultBad } from './run.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * The derived gradients of the merge and reduce ops on the GPU, float32 (float64 runs on the JS kernels). Both go
 * back through a chain of steps, as the JS kernels do: a reduce's group, or the entries one dense element of a
 * merge meets, is one thread that walks its entries forward (the accumulator each step starts from) and then back
 * in reverse from grad, so every product is the JS kernel's float32 operation on the same operands. Two sparse
 * operands of a merge: one thread per entry of the host's merge plan (the JS kernels' own), the kept entries
 * numbered on the GPU by a scan. Each call is one submission.
 */

type Maybe = M.Maybe;

/** A set of magnitudes widened by `step` until it holds every value `steps` steps reach (undefined: subnormal). */
function widen(start: Maybe, step: (m: Maybe) => Maybe, steps: number): Maybe {
  let set = start;
  for (let k = 0; k < steps && set; k++) {
    const next = step(set);
    if (!next) return undefined;
    if (M.covers(set, next)) break;
    set = M.join(set, next);
  }
  return set;
}

/** A product, or the 0 an absent one is. */
const apply = (f: MagnitudeFn | undefined, ...ms: Maybe[]): Maybe => (f ? f(...ms) : M.lit(0));

/** The scalar arguments as float32, or undefined where one is not a float32 (the runtime rounds them; nan is). */
export function scalarsOf(names: string[], args: Args): Float32Array | undefined {
  const values = names.map((s) => Number(args[s]));
  return values.every((v) => Number.isNaN(v) || Math.fround(v) === v) ? Float32Array.from(values) : undefined;
}

/** The float32 bits of a number, for P[2]. */
export const bitsOf = (v: number) => new Uint32Array(Float32Array.of(v).buffer)[0];

const dense = (data: Float32Array, shape: number[]): DenseData => ({ kind: 'dense', data, shape, dtype: 'float32' });

/** Buffers of one call, released together. */
function buffersOf(ctx: WebGpuContext) {
  const owned: GPUBuffer[] = [];
  return {
    owned,
    up: (data: Float32Array | Uint32Array | Int32Array) => (owned.push(ctx.upload(data)), owned.at(-1)!),
    out: (bytes: number) => (owned.push(ctx.buffer(bytes)), owned.at(-1)!),
  };
}

/**
 * A reduce's gradient: the host groups the entries with the JS kernels' plan and lists each group's entries in
 * entry order (a stable counting sort); one thread per group runs its steps forward from the accumulator's start
 * (where a product reads acc) and back from the group's grad.
 */
export function reduceGradientKernel(ctx: WebGpuContext, src: WebGpuReduceGradientSource, js: JsKernel): Kernel {
  return async (args: Args): Promise<KernelResult<Args>> => {
    const sp = args[src.roles.sparse!] as SparseData;
    if (sp.dtype !== 'float32') return delegate(js, args, REASONS.notComputed(sp.dtype));
    if ('not' in src.wgsl) return delegate(js, args, REASONS.float32NotWgsl(src.wgsl.not));
    const grad = args.grad as DenseData;
    const scalars = scalarsOf(src.roles.scalars, args);
    if (grad.dtype !== 'float32' || !scalars) return delegate(js, args, REASONS.unchecked);
    const x = sp.values as Float32Array;
    const g = grad.data as Float32Array;
    const axes = args[src.roles.axes!] as number[] | null;
    const plan = reducePlan(
      sp,
      axes,
      args[src.roles.keepdims!] as boolean,
      src.output === 'dense' ? 'dense' : 'sparse',
    );
    // The JS kernel refuses (sparse output) or reads past a grad of another length.
    if (g.length !== plan.groups) return delegate(js, args, REASONS.unchecked);
    if (!inputsOk('float32', x, g, scalars)) return delegate(js, args, REASONS.nonFinite);
    const n = x.length;
    const values = new Float32Array(n);
    if (n === 0) return { [src.outputs.sparse]: dense(values, [0]) };
    const groups = groupBy(
      plan.group,
      plan.groups,
      Uint32Array.from({ length: n }, (_, i) => i),
    );
    const forward = src.readsAcc;
    // A max's or min's gradient moves grad or a zero (normal inputs: nothing to flush); the others' steps compute.
    if (!src.selects && !reduceGradientBound(src, magnitudesOf(x), magnitudesOf(g), scalars, groups.longest))
      return delegate(js, args, REASONS.subnormal);
    if (![n, plan.groups + 1].every((k) => ctx.fits(4 * k))) throw new BindingLimitError(ctx.maxBindingBytes);
    const { owned, up, out } = buffersOf(ctx);
    try {
      const O = out(4 * n);
      const bindings = [up(params(plan.groups, bitsOf(src.init), scalars)), up(x), up(groups.start)];
      const tied = src.selects ? out(4) : undefined;
      bindings.push(up(groups.item), up(g), O, ...(forward ? [out(4 * n)] : []), ...(tied ? [tied] : []));
      ctx.dispatch({ code: src.wgsl.values, buffers: bindings, threads: plan.groups });
      const [read, ties] = await ctx.read([O, 4 * n], ...(tied ? [[tied, 4] as [GPUBuffer, number]] : []));
      if (ties && new Uint32Array(ties)[0] !== 0) return delegate(js, args, REASONS.ties);
      const result = new Float32Array(read);
      if (resultBad('float32', result)) return delegate(js, args, REASONS.nonFiniteResult);
      return { [src.outputs.sparse]: dense(result, [n]) };
    } finally {
      ctx.release(...owned);
    }
  };
}

/**
 * The magnitudes of a reduce's gradient (of its values `xm`, grad `gm`), or undefined where a step could take a
 * subnormal value: the accumulators the forward steps reach (the forward op's init and combine, widened over the
 * longest group), then grad as it goes back (the acc product, widened likewise) and each value's product. A max's or
 * min's gradient only moves grad or a zero: grad's magnitudes.
 */
export function reduceGradientBound(
  src: WebGpuReduceGradientSource,
  xm: Maybe,
  gm: Maybe,
  scalars: Float32Array,
  longest: number,
): Maybe {
  if (src.selects) return gm;
  const fwd = WEBGPU_FAMILIES[src.forward].float32;
  const s = Array.from(scalars, M.lit);
  // A product that does not read acc takes it as 0 (the forward pass does not run).
  const acc = src.readsAcc ? widen(fwd.init!(...s), (m) => fwd.combine!(m, xm, ...s), longest) : M.lit(0);
  if (!acc) return undefined;
  const adj = widen(gm, (m) => apply(src.float32.acc, xm, acc, m, ...s), longest);
  return adj && apply(src.float32.x, xm, acc, adj, ...s);
}

/**
 * A merge's gradient. Two sparse operands: the JS kernels' merge plan on the host, then on the GPU whether the
 * forward keeps each entry both hold (where it may drop one), an exclusive scan numbering the kept entries (entry k
 * reads grad at M[k]), and each entry's products. One dense operand: see mergeDenseGradient.
 */
export function mergeGradientKernel(ctx: WebGpuContext, src: WebGpuMergeGradientSource, js: JsKernel): Kernel {
  return async (args: Args): Promise<KernelResult<Args>> => {
    const a = args[src.roles.a!] as SparseData | DenseData;
    const b = args[src.roles.b!] as SparseData | DenseData;
    if (a.dtype !== 'float32') return delegate(js, args, REASONS.notComputed(a.dtype));
    if ('not' in src.wgsl) return delegate(js, args, REASONS.float32NotWgsl(src.wgsl.not));
    const grad = args.grad as DenseData;
    const scalars = scalarsOf(src.roles.scalars, args);
    if (grad.dtype !== 'float32' || b.dtype !== 'float32' || !scalars) return delegate(js, args, REASONS.unchecked);
    if (a.kind !== 'sparse' || b.kind !== 'sparse') return mergeDenseGradient(ctx, src, js, args, scalars);
    const wgsl = src.wgsl;
    const [x, y, g] = [a.values as Float32Array, b.values as Float32Array, grad.data as Float32Array];
    if (!inputsOk('float32', x, y, g, scalars)) return delegate(js, args, REASONS.nonFinite);
    const fwd = WEBGPU_FAMILIES[src.forward];
    const s = Array.from(scalars, M.lit);
    const [am, bm, gm] = [x, y, g].map(magnitudesOf);
    const products = [src.float32.a, src.float32.b, src.float32.only_a, src.float32.only_b];
    // The forward value is computed only to keep an entry or not.
    if (
      (wgsl.keep && mayBeSubnormal(fwd, 'float32', [x, y], scalars)) ||
      products.some((f) => !apply(f, am, bm, gm, ...s))
    )
      return delegate(js, args, REASONS.subnormal);
    const plan = mergePlan(a, b, fwd.join as 'union' | 'intersection');
    const n = plan.n;
    // grad must have one value per kept entry (else the JS kernel refuses it): without keep, every entry.
    if (wgsl.keep ? g.length > n : g.length !== n) return delegate(js, args, REASONS.unchecked);
    const [na, nb] = [x.length, y.length];
    if (n === 0)
      return { [src.outputs.a]: dense(new Float32Array(na), [na]), [src.outputs.b]: dense(new Float32Array(nb), [nb]) };
    if (![na + nb, n + 1, g.length].every((k) => ctx.fits(4 * k))) throw new BindingLimitError(ctx.maxBindingBytes);
    const { owned, up, out } = buffersOf(ctx);
    try {
      // a's gradient and b's in one buffer, b's from P[2] = na on.
      const P = up(params(n, na, scalars));
      const [A, B, FA, FB] = [up(x), up(y), up(plan.fromA.subarray(0, n)), up(plan.fromB.subarray(0, n))];
      const O = out(4 * (na + nb));
      let Mk: GPUBuffer | undefined;
      if (wgsl.keep) {
        // M[k] = 1 where entry k is kept, M[n] = 0; scanned, M[k] numbers it and M[n] counts the kept entries.
        Mk = out(4 * (n + 1));
        ctx.dispatch({ code: wgsl.keep, buffers: [P, A, B, FA, FB, Mk], threads: n });
        recordScan(ctx, Mk, n + 1, owned);
      }
      const G = up(g);
      ctx.dispatch({ code: wgsl.values, buffers: [P, A, B, FA, FB, G, O, ...(Mk ? [Mk] : [])], threads: n });
      const read = await ctx.read([O, 4 * (na + nb)], ...(Mk ? [[Mk, 4 * (n + 1)] as [GPUBuffer, number]] : []));
      if (read[1] && new Uint32Array(read[1])[n] !== g.length) return delegate(js, args, REASONS.unchecked);
      const both = new Float32Array(read[0]);
      if (resultBad('float32', both)) return delegate(js, args, REASONS.nonFiniteResult);
      const [da, db] = [both.slice(0, na), both.slice(na)];
      return { [src.outputs.a]: dense(da, [na]), [src.outputs.b]: dense(db, [nb]) };
    } finally {
      ctx.release(...owned);
    }
  };
}

/**
 * Sparse ⊕ dense: each dense element's entries (listed in entry order by a stable counting sort of their offsets,
 * repeats included) combine in turn into it, forward, then grad goes back through them in reverse: each entry's
 * product, and what is left the dense operand's gradient, as the JS kernel walks every entry in reverse.
 */
async function mergeDenseGradient(
  ctx: WebGpuContext,
  src: WebGpuMergeGradientSource,
  js: JsKernel,
  args: Args,
  scalars: Float32Array,
): Promise<KernelResult<Args>> {
  const a = args[src.roles.a!] as SparseData | DenseData;
  const b = args[src.roles.b!] as SparseData | DenseData;
  const wgsl = src.wgsl as { dense?: string };
  const sparseIsA = a.kind === 'sparse';
  const sp = (sparseIsA ? a : b) as SparseData;
  const dn = (sparseIsA ? b : a) as DenseData;
  if (!wgsl.dense || dn.kind !== 'dense' || sp.kind !== 'sparse') return delegate(js, args, REASONS.unchecked);
  const [sv, dv, g] = [
    sp.values as Float32Array,
    dn.data as Float32Array,
    (args.grad as DenseData).data as Float32Array,
  ];
  if (g.length !== dv.length) return delegate(js, args, REASONS.unchecked);
  if (!inputsOk('float32', sv, dv, g, scalars)) return delegate(js, args, REASONS.nonFinite);
  const n = sv.length;
  const size = dv.length;
  const sparseGrad = (data: Float32Array) => dense(data, [n]);
  const denseGrad = (data: Float32Array) => dense(data, dn.shape.slice());
  const result = (s: Float32Array, d: Float32Array) => ({
    [src.outputs.a]: sparseIsA ? sparseGrad(s) : denseGrad(d),
    [src.outputs.b]: sparseIsA ? denseGrad(d) : sparseGrad(s),
  });
  if (n === 0) return result(new Float32Array(0), g.slice());
  const off = Uint32Array.from(broadcastOffsets(sp, dn.shape));
  const groups = groupBy(
    off,
    size,
    Uint32Array.from({ length: n }, (_, i) => i),
  );
  if (mayBeSubnormalDense(src, sparseIsA, sv, dv, g, scalars, groups.longest))
    return delegate(js, args, REASONS.subnormal);
  if (![n, 2 * size].every((k) => ctx.fits(4 * k))) throw new BindingLimitError(ctx.maxBindingBytes);
  const { owned, up, out } = buffersOf(ctx);
  try {
    const [O, OD] = [out(4 * n), out(4 * size)];
    const P = up(params(size, sparseIsA ? 1 : 0, scalars));
    // The dense values, then grad, in one buffer.
    const both = new Float32Array(2 * size);
    both.set(dv);
    both.set(g, size);
    const DG = up(both);
    const buffers = [P, up(sv), DG, up(groups.start), up(groups.item), out(4 * n), O, OD];
    ctx.dispatch({ code: wgsl.dense, buffers, threads: size });
    const [os, od] = (await ctx.read([O, 4 * n], [OD, 4 * size])).map((r) => new Float32Array(r));
    if (resultBad('float32', os) || resultBad('float32', od)) return delegate(js, args, REASONS.nonFiniteResult);
    return result(os, od);
  } finally {
    ctx.release(...owned);
  }
}

/** Whether a step of the dense path could take a subnormal value: the dense values combined forward, then grad back. */
function mayBeSubnormalDense(
  src: WebGpuMergeGradientSource,
  sparseIsA: boolean,
  sv: Float32Array,
  dv: Float32Array,
  g: Float32Array,
  scalars: Float32Array,
  longest: number,
): boolean {
  const value = WEBGPU_FAMILIES[src.forward].float32.value!;
  const s = Array.from(scalars, M.lit);
  const sm = magnitudesOf(sv);
  // Operands in the expression's order, a then b.
  const ab = (cur: Maybe): [Maybe, Maybe] => (sparseIsA ? [sm, cur] : [cur, sm]);
  const cur = widen(magnitudesOf(dv), (m) => value(...ab(m), ...s), longest);
  if (!cur) return true;
  const [mine, theirs] = sparseIsA ? [src.float32.a, src.float32.b] : [src.float32.b, src.float32.a];
  const adj = widen(magnitudesOf(g), (m) => apply(theirs, ...ab(cur), m, ...s), longest);
  return !adj || !apply(mine, ...ab(cur), adj, ...s);
}
