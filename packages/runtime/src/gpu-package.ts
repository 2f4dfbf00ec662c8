import type { Backend } from './backend.js';

/**
 * The GPU backend's package. It is a separate install, not a dependency of ours: gpu.js and headless-gl are large
 * and native, and most users never load them.
 */
const GPU_PACKAGE = '@sparse/kernels-gpu';

/**
 * Loads the GPU backend from its package where it is installed beside this one (Node). The specifier is not a
 * literal, so that bundlers do not try to resolve a package the app may not have; a bundled app registers the
 * backend itself, as the error says.
 */
export async function loadGpuPackage(): Promise<Backend> {
  let mod: { createGpuBackend(): Promise<Backend> };
  try {
    mod = await import(/* webpackIgnore: true */ /* @vite-ignore */ GPU_PACKAGE);
  } catch (e) {
    throw new Error(
      `the 'gpu' backend is the separate package ${GPU_PACKAGE}, which could not be loaded (${(e as Error).message}). ` +
        `Install it (npm install ${GPU_PACKAGE}); in a bundled app, also register it: ` +
        `import { createGpuBackend } from '${GPU_PACKAGE}'; registerBackend('gpu', createGpuBackend);`,
      { cause: e },
    );
  }
  return mod.createGpuBackend();
}
