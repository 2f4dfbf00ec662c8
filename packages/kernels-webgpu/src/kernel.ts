import type { KernelResult, KernelTable } from '@sparse/kernel-abi';
import type { WebGpuContext } from './context.js';

export type Args = Record<string, unknown>;
/** A kernel as the backend's table holds it, keyed by op id at run time: WebGPU reads results back asynchronously. */
export type Kernel = (args: Args) => Promise<KernelResult<Args>>;
/** A JS kernel as a family driver holds it, keyed by op id at run time. */
export type JsKernel = (args: Args) => Args;

/** Op K's kernel here: K's arguments in, a promise of its outputs (or of a delegation to the JS kernel). */
export type AsyncOpKernel<K extends keyof KernelTable> = (
  args: Parameters<KernelTable[K]>[0],
) => Promise<KernelResult<ReturnType<KernelTable[K]>>>;

/** A hand-written WebGPU kernel of op K: built from the device context and the JS kernel it may delegate to. */
export type KernelFactory<K extends keyof KernelTable> = (ctx: WebGpuContext, js: KernelTable[K]) => AsyncOpKernel<K>;
