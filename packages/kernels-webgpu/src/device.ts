/// <reference types="@webgpu/types" />

/** Where the webgpu backend gets its device: a browser's `navigator.gpu`, or Dawn's `webgpu` package in Node. */

const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';

/** What to say when no WebGPU adapter is available: what is missing, and how to get it. */
export function noWebGpuMessage(node: boolean, detail?: string): string {
  const how = node
    ? "in Node the webgpu backend runs on Dawn: install the 'webgpu' package (0.6 or later: npm install webgpu) beside " +
      '@sparse/kernels-webgpu, and a Vulkan driver (on Debian: libvulkan1 and a GPU driver; without a GPU, the ' +
      "SwiftShader driver that Debian's chromium package ships: VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json)"
    : 'use a browser with WebGPU enabled (navigator.gpu), or the gpu backend (WebGL) where it has none';
  return `No WebGPU device is available for the 'webgpu' backend${detail ? ` (${detail})` : ''}: ${how}.`;
}

/** Dawn's package: not a literal, so that bundlers leave a browser build without it (browsers have navigator.gpu). */
const DAWN = 'webgpu';

/** Dawn's GPU object in Node, from the optional `webgpu` package, its globals (GPUBufferUsage…) installed. */
async function dawnGpu(): Promise<GPU> {
  let mod: { create(flags: string[]): GPU; globals: Record<string, unknown> };
  try {
    mod = (await import(/* webpackIgnore: true */ /* @vite-ignore */ DAWN)) as typeof mod;
  } catch (e) {
    throw new Error(noWebGpuMessage(true, `'webgpu' did not load: ${(e as Error).message}`), { cause: e });
  }
  for (const [k, v] of Object.entries(mod.globals))
    if (!(k in globalThis)) Object.defineProperty(globalThis, k, { value: v, configurable: true, writable: true });
  return (dawn ??= mod.create([]));
}

/** Held for the life of the process: Dawn tears its instance down when the GPU object is collected. */
let dawn: GPU | undefined;

/** A device with the largest buffers and dispatches its adapter allows (the defaults are far below a GPU's). */
export async function openDevice(powerPreference: GPUPowerPreference = 'high-performance'): Promise<GPUDevice> {
  const gpu =
    !isNode && typeof navigator !== 'undefined' && navigator.gpu ? navigator.gpu : isNode ? await dawnGpu() : undefined;
  if (!gpu) throw new Error(noWebGpuMessage(false, 'navigator.gpu is undefined'));
  const adapter = await gpu.requestAdapter({ powerPreference });
  if (!adapter) throw new Error(noWebGpuMessage(isNode, 'requestAdapter() found no adapter'));
  const { maxStorageBufferBindingSize, maxBufferSize, maxComputeWorkgroupsPerDimension } = adapter.limits;
  return adapter.requestDevice({
    requiredLimits: { maxStorageBufferBindingSize, maxBufferSize, maxComputeWorkgroupsPerDimension },
  });
}
