import { broadcastOffsets, delegate } from '@sparse/kernel-abi';
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

/**
 * A cwise op on the GPU: the host computes each stored entry's offset into the dense operand broadcast to the
 * sparse one (numpy rules, as the JS kernel); the GPU gathers the dense value there and evaluates the expression,
 * one stored entry per thread.
 */
export function cwiseKernel(ctx: WebGpuContext, src: WebGpuFamilySource, js: JsKernel): Kernel {
  return async (args: Args): Promise<KernelResult<Args>> => {
    const sp = args[src.roles.sparse!] as SparseData;
    const dense = args[src.roles.dense!] as DenseData;
    const kernel = kernelFor(src, sp.dtype);
    if ('reason' in kernel) return delegate(js, args, kernel.reason);
    const dtype = sp.dtype as GpuDtype;
    const [a, b] = [sp.values as GpuValues, dense.data as GpuValues];
    const scalars = scalarsOf(src, args, dtype);
    if (!inputsOk(dtype, a, b, scalars)) return delegate(js, args, REASONS.nonFinite);
    if (mayBeSubnormal(src, dtype, [a, b], scalars)) return delegate(js, args, REASONS.subnormal);
    const n = a.length;
    let values: GpuValues = valuesIn(dtype, new ArrayBuffer(0));
    if (n > 0) {
      if (!ctx.fits(4 * n) || !ctx.fits(b.byteLength)) throw new BindingLimitError(ctx.maxBindingBytes);
      const off = Uint32Array.from(broadcastOffsets(sp, dense.shape));
      const out = await runPass(ctx, kernel.wgsl, n, [params(n, 0, scalars), a, b, off, { bytes: 4 * n }], [4]);
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
