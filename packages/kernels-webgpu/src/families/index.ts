import type { WebGpuContext } from '../context.js';
import { WEBGPU_FAMILIES, type WebGpuFamilySource } from '../generated/families.js';
import { WEBGPU_GRADIENTS } from '../generated/gradients.js';
import { gradientKernel } from './gradients.js';
import type { JsKernel, Kernel } from '../kernel.js';
import { cwiseKernel } from './cwise.js';
import { mapKernel } from './map.js';
import { mergeKernel } from './merge.js';
import { reduceKernel } from './reduce.js';

const DRIVERS: Record<
  WebGpuFamilySource['family'],
  (ctx: WebGpuContext, src: WebGpuFamilySource, js: JsKernel) => Kernel
> = { map: mapKernel, cwise: cwiseKernel, reduce: reduceKernel, merge: mergeKernel };

/**
 * The expression-family ops generated for WebGPU, by op id (generated/families.ts: every one that allows float32
 * or int32; generated/gradients.ts: the derived gradients of every family): each made from its JS kernel,
 * to delegate to. A dtype WGSL does not compute, or whose WGSL meaning
 * is not TensorFlow's for the op (the generated `not`), runs on the JS kernel, saying why.
 */
export function familyKernels(ctx: WebGpuContext): Record<string, (js: JsKernel) => Kernel> {
  const out: Record<string, (js: JsKernel) => Kernel> = {};
  for (const [op, src] of Object.entries(WEBGPU_FAMILIES)) out[op] = (js) => DRIVERS[src.family](ctx, src, js);
  for (const [op, src] of Object.entries(WEBGPU_GRADIENTS)) out[op] = (js) => gradientKernel(ctx, src, js);
  return out;
}
