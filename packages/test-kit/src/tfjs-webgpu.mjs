// TF.js on its webgpu backend in Node, for the tests and the device bench: plain JavaScript, so that both load it.
import * as tf from '@tensorflow/tfjs-core';

/** Held for the life of the process: Dawn tears its instance down when the GPU object is collected. */
let gpu;

/**
 * TF.js on its webgpu backend in Node: Dawn's GPU (the `webgpu` package; SwiftShader's Vulkan where no driver is
 * configured) as `navigator.gpu`, which tfjs-backend-webgpu looks for, and kernels kept on the GPU however small
 * their inputs (WEBGPU_CPU_FORWARD off), as on a page. Resolves to TF.js's GPUDevice, for sparse's webgpu backend to
 * share (`createWebGpuBackend({ device })`).
 */
export async function tfjsOnWebGpu() {
  process.env.VK_ICD_FILENAMES ??= '/usr/lib/chromium/vk_swiftshader_icd.json';
  const dawn = await import('webgpu');
  for (const [k, v] of Object.entries(dawn.globals))
    if (!(k in globalThis)) Object.defineProperty(globalThis, k, { value: v, configurable: true, writable: true });
  gpu ??= dawn.create([]);
  Object.defineProperty(globalThis, 'navigator', { value: { gpu, userAgent: 'node' }, configurable: true });
  await import('@tensorflow/tfjs-backend-webgpu');
  tf.env().set('WEBGPU_CPU_FORWARD', false);
  if (!(await tf.setBackend('webgpu'))) throw new Error('tfjsOnWebGpu: TF.js did not start its webgpu backend');
  return tf.backend().device;
}
