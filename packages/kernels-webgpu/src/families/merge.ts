import {
  allocValues,
  broadcastOffsets,
  delegate,
  type DenseData,
  type KernelResult,
  mergePlan,
  type SparseData,
  takeMerged,
  type Values,
} from '@sparse/kernel-abi';
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

/**
 * A merge op on the GPU. Two sparse operands: the host plans the merge of the two sorted index sets (linear, the
 * JS backend's shared plan: each output entry's row of a and of b); the GPU computes each entry's value (expr,
 * only_a or only_b) and whether it is kept; the host drops those not kept and copies the indices. One dense
 * operand: see mergeDense.
 */
export function mergeKernel(ctx: WebGpuContext, src: WebGpuFamilySource, js: JsKernel): Kernel {
  return async (args: Args): Promise<KernelResult<Args>> => {
    const a = args[src.roles.a!] as SparseData | DenseData;
    const b = args[src.roles.b!] as SparseData | DenseData;
    const kernel = kernelFor(src, a.dtype);
    if ('reason' in kernel) return delegate(js, args, kernel.reason);
    const dtype = a.dtype as GpuDtype;
    const scalars = scalarsOf(src, args, dtype);
    if (a.kind !== 'sparse' || b.kind !== 'sparse') return mergeDense(ctx, src, kernel.dense!, js, args, scalars);
    const [x, y] = [a.values as GpuValues, b.values as GpuValues];
    if (!inputsOk(dtype, x, y, scalars)) return delegate(js, args, REASONS.nonFinite);
    if (mayBeSubnormal(src, dtype, [x, y], scalars)) return delegate(js, args, REASONS.subnormal);
    const plan = mergePlan(a, b, src.join!);
    const n = plan.n;
    let values: Values = allocValues(a.dtype, 0);
    const kept = new Uint32Array(n);
    let m = 0;
    if (n > 0) {
      const out = await runPass(
        ctx,
        kernel.wgsl,
        n,
        [
          params(n, 0, scalars),
          x,
          y,
          plan.fromA.subarray(0, n),
          plan.fromB.subarray(0, n),
          { bytes: 4 * n },
          { bytes: 4 * n },
        ],
        [5, 6],
      );
      const v = valuesIn(dtype, out[0]);
      if (resultBad(dtype, v)) return delegate(js, args, REASONS.nonFiniteResult);
      const keep = new Uint32Array(out[1]);
      for (let k = 0; k < n; k++) {
        if (keep[k] === 0) continue;
        v[m] = v[k];
        kept[m++] = k;
      }
      values = v;
    }
    return { [src.output]: takeMerged(plan, values, kept, m, a, b) };
  };
}

/**
 * Sparse ⊕ dense (a dense result): the GPU combines each stored value with the dense element at its offset, in a
 * copy of the dense data, one stored entry per thread. The offsets must be strictly increasing (canonical order
 * without repeats) so that no two threads write one element; else the call runs on the JS kernels.
 */
async function mergeDense(
  ctx: WebGpuContext,
  src: WebGpuFamilySource,
  code: string,
  js: JsKernel,
  args: Args,
  scalars: GpuValues,
): Promise<KernelResult<Args>> {
  const a = args[src.roles.a!] as SparseData | DenseData;
  const b = args[src.roles.b!] as SparseData | DenseData;
  const sparseIsA = a.kind === 'sparse';
  const sp = (sparseIsA ? a : b) as SparseData;
  const dn = (sparseIsA ? b : a) as DenseData;
  const dtype = dn.dtype as GpuDtype;
  const [sv, dv] = [sp.values as GpuValues, dn.data as GpuValues];
  if (!inputsOk(dtype, sv, dv, scalars)) return delegate(js, args, REASONS.nonFinite);
  // The expression's operands in its order, a then b.
  if (mayBeSubnormal(src, dtype, sparseIsA ? [sv, dv] : [dv, sv], scalars))
    return delegate(js, args, REASONS.subnormal);
  const n = sv.length;
  let data: GpuValues = dv.slice();
  if (n > 0) {
    if (!ctx.fits(4 * n) || !ctx.fits(dv.byteLength)) throw new BindingLimitError(ctx.maxBindingBytes);
    const off = Uint32Array.from(broadcastOffsets(sp, dn.shape));
    for (let i = 1; i < n; i++) if (off[i] <= off[i - 1]) return delegate(js, args, REASONS.repeatedEntries);
    const out = await runPass(ctx, code, n, [params(n, sparseIsA ? 1 : 0, scalars), sv, off, dv], [3]);
    data = valuesIn(dtype, out[0]);
    if (resultBad(dtype, data)) return delegate(js, args, REASONS.nonFiniteResult);
  }
  const output: DenseData = { kind: 'dense', data, shape: dn.shape.slice(), dtype: dn.dtype };
  return { [src.output]: output };
}
