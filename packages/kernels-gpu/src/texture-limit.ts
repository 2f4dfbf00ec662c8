import { delegate } from '@sparse/kernel-abi';
import { REASONS } from './delegation.js';
import type { JsKernel, Kernel } from './kernel.js';

// Every gpu.js kernel output and array argument is a 2-D texture, and the device caps each side (WebGL's
// MAX_TEXTURE_SIZE). gpu.js throws a bare Error past it; GpuContext checks each kernel first, with gpu.js's own layout
// (utils.js), and a kernel past the limit runs on the JS kernels instead, saying so.

/** The near-square sides gpu.js lays `texels` out in (utils.closestSquareDimensions). */
function nearSquare(texels: number): [number, number] {
  const root = Math.sqrt(texels);
  let high = Math.ceil(root);
  let low = Math.floor(root);
  while (high * low < texels) {
    high--;
    low = Math.ceil(texels / high);
  }
  return [low, Math.ceil(texels / low)];
}

/** The texture of a kernel output [n] or [n, rows] (gpu.js order): as given if 2-D, else near square. */
export function outputTexture(n: number, rows: number): [number, number] {
  return rows > 1 ? [n, rows] : nearSquare(n);
}

/** The texture of a float32 array argument: four values a texel, near square. */
export function argumentTexture(length: number): [number, number] {
  return nearSquare(Math.ceil(length / 4));
}

/** A kernel's output or argument would need a texture side past `limit`; thrown before the kernel runs. */
export class TextureLimitError extends Error {
  override name = 'TextureLimitError';
  constructor(readonly limit: number) {
    super(`a texture side past the GPU's limit of ${limit}`);
  }
}

/** A GPU kernel that hands its call to the JS kernel, saying so, where a texture it needs passes the limit. */
export function withinTextureLimit(kernel: Kernel, js: JsKernel): Kernel {
  return (args) => {
    try {
      return kernel(args);
    } catch (e) {
      if (e instanceof TextureLimitError) return delegate(js, args, REASONS.textureLimit(e.limit));
      throw e;
    }
  };
}
