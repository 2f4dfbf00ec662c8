import { productsMayBeSubnormal, type DType, type Values } from '@sparse/kernel-abi';
import type { WebGpuContext } from '../context.js';
import { allNormal, REASONS } from '../delegation.js';
import { INT32_MAX, type GpuDType } from './spmm.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * Why the GPU cannot take a matmul call, or undefined where it can: a dtype WGSL does not compute, float32 inputs
 * holding inf, nan or a subnormal or whose products could be subnormal (GPUs may flush them), a dim past 2^31 - 1, or a buffer (of `bytes`) past the device's binding limit.
 */
export function refusal(
  ctx: WebGpuContext,
  dtype: DType,
  inputs: readonly Values[],
  dims: readonly number[],
  bytes: readonly number[],
): string | undefined {
  if (!isGpuDType(dtype)) return REASONS.notComputed(dtype);
  if (dtype === 'float32' && !inputs.every((v) => allNormal(v as Float32Array))) return REASONS.nonFinite;
  // Each product pairs values of two inputs: every pair's products and their sums must stay normal.
  if (dtype === 'float32')
    for (let i = 0; i < inputs.length; i++)
      for (let j = i + 1; j < inputs.length; j++)
        if (productsMayBeSubnormal(inputs[i] as Float32Array, inputs[j] as Float32Array)) return REASONS.subnormal;
  if (dims.some((d) => d > INT32_MAX) || bytes.some((b) => !ctx.fits(b)))
    throw new BindingLimitError(ctx.maxBindingBytes);
  return undefined;
}

export function isGpuDType(dtype: DType): dtype is GpuDType {
  return dtype === 'float32' || dtype === 'int32';
}

/** A result read back, as its dtype's store. */
export function viewOf(dtype: GpuDType, buffer: ArrayBuffer): Float32Array | Int32Array {
  return dtype === 'float32' ? new Float32Array(buffer) : new Int32Array(buffer);
}

/** An empty or zero-filled store of the dtype (a product with no elements, which needs no GPU). */
export function zeros(dtype: GpuDType, n: number): Float32Array | Int32Array {
  return dtype === 'float32' ? new Float32Array(n) : new Int32Array(n);
}
