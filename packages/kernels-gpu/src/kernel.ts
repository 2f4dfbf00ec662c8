import type { KernelResult, KernelTable, OpKernel } from '@sparse/kernel-abi';
import type { GpuContext } from './gpu-context.js';

export type Args = Record<string, unknown>;
/** A kernel as the backend's table holds it, keyed by op id at run time. */
export type Kernel = (args: Args) => KernelResult<Args>;
/** A JS kernel as a family driver holds it, keyed by op id at run time. */
export type JsKernel = (args: Args) => Args;

/** A hand-written GPU kernel of op K: built from the GPU context and the JS kernel it may delegate to. */
export type KernelFactory<K extends keyof KernelTable> = (ctx: GpuContext, js: KernelTable[K]) => OpKernel<K>;
