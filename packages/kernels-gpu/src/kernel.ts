import type { KernelResult, KernelTable } from '@sparse/kernel-abi';
import type { GpuContext } from './gpu-context.js';

export type Args = Record<string, unknown>;
/** A kernel as the backend's table holds it, keyed by op id at run time. */
export type Kernel = (args: Args) => KernelResult<Args>;
/** A JS kernel as a family driver holds it, keyed by op id at run time. */
export type JsKernel = (args: Args) => Args;

/** Op K's kernel on this backend: K's arguments and outputs (kernel-abi's KernelTable), free to delegate. */
export type OwnKernel<K extends keyof KernelTable> = (
  args: Parameters<KernelTable[K]>[0],
) => KernelResult<ReturnType<KernelTable[K]>>;

/** A hand-written GPU kernel of op K: built from the GPU context and the JS kernel it may delegate to. */
export type KernelFactory<K extends keyof KernelTable> = (ctx: GpuContext, js: KernelTable[K]) => OwnKernel<K>;
