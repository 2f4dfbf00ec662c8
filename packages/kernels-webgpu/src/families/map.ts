import { delegate } from '@sparse/kernel-abi';
import type { KernelResult, SparseData } from '@sparse/kernel-abi';
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

/** A map op on the GPU: one stored value per thread, in and out; the indices are copied on the host. */
export function mapKernel(ctx: WebGpuContext, src: WebGpuFamilySource, js: JsKernel): Kernel {
  return async (args: Args): Promise<KernelResult<Args>> => {
    const sp = args[src.roles.sparse!] as SparseData;
    const kernel = kernelFor(src, sp.dtype);
    if ('reason' in kernel) return delegate(js, args, kernel.reason);
    const dtype = sp.dtype as GpuDtype;
    const x = sp.values as GpuValues;
    const scalars = scalarsOf(src, args, dtype);
    if (!inputsOk(dtype, x, scalars)) return delegate(js, args, REASONS.nonFinite);
    if (mayBeSubnormal(src, dtype, [x], scalars)) return delegate(js, args, REASONS.subnormal);
    const n = x.length;
    let values: GpuValues = valuesIn(dtype, new ArrayBuffer(0));
    if (n > 0) {
      const out = await runPass(ctx, kernel.wgsl, n, [params(n, 0, scalars), x, { bytes: 4 * n }], [2]);
      values = valuesIn(dtype, out[0]);
      if (resultBad(dtype, values)) return delegate(js, args, REASONS.nonFiniteResult);
    }
    const output: SparseData = {
      kind: 'sparse',
      indices: sp.indices.slice(),
      values,
      shape: sp.shape.slice(),
      dtype: sp.dtype,
    };
    return { [src.output]: output };
  };
}
