import { afterAll, beforeAll } from 'vitest';
import { isDelegation } from '@sparse/kernel-abi';
import { kernels as jsKernels } from '@sparse/kernels-js';
import { createWebGpuBackend, type WebGpuBackend } from '../src/index.js';

// What the webgpu backend's tests share: one backend per test file (SwiftShader's Vulkan where no driver is
// configured), a kernel's result on it and on the JS reference.

export type Args = Record<string, unknown>;

/** The test file's backend: made before its tests by `useBackend()`, destroyed after them. */
export let backend: WebGpuBackend;

/** Makes the test file's backend before its tests and destroys it after them; call once, at the file's top. */
export function useBackend(): void {
  beforeAll(async () => {
    process.env.VK_ICD_FILENAMES ??= '/usr/lib/chromium/vk_swiftshader_icd.json';
    backend = await createWebGpuBackend();
  }, 60_000);
  afterAll(() => backend?.destroy());
}

/** An op's outputs on the webgpu backend, and why it ran on the JS kernels if it did. */
export async function onGpu<O>(op: string, args: Args): Promise<{ outputs: O; reason?: string }> {
  const result = await backend.kernels[op](args);
  return isDelegation(result) ? { outputs: result.outputs as O, reason: result.reason } : { outputs: result as O };
}

/** An op's outputs on the JS reference kernel. */
export function onJs<O>(op: string, args: Args): O {
  return (jsKernels as unknown as Record<string, (a: Args) => O>)[op](args);
}
