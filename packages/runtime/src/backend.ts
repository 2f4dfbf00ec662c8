import type { CsrData, DType, DenseData, DeviceValues, KernelTable, SparseData } from '@sparse/kernel-abi';
import type { RuntimeOptions } from './runtime-options.js';

/**
 * A kernel as the runtime holds it: plain data in, plain data out. Each op's exact signature is kernel-abi's
 * KernelTable; a backend's table is keyed by op id and may lack ops (the runtime then says so).
 */
export type BackendKernel = (args: never) => unknown;

/** A backend: a name and its kernels keyed by op id. Kernels speak plain data only. */
export interface Backend {
  name: string;
  kernels: { readonly [op in keyof KernelTable]?: BackendKernel };
  /**
   * Whether its kernels return promises (a GPU that reads results back asynchronously): `rt.run` then refuses, saying
   * to use `rt.runAsync` or `rt.sparseAsync`.
   */
  asynchronous?: boolean;
  /**
   * An asynchronous backend's kernels that run at once, for `rt.run` and the typed API (the webgpu backend records
   * the work on its device and leaves the results there, as values read back by `await t.data()`).
   */
  synchronousKernels?: { readonly [op in keyof KernelTable]?: BackendKernel };
  /** The ops whose synchronous kernels take values that live on the backend's device (the results of others). */
  deviceOps?: ReadonlySet<string>;
  /** The threads its calls may run on now, if more than one (read at each use: threads that fail leave one). */
  threads?: number;
  /**
   * A faster form of the runtime's index check, if the backend has one: true when every index is a whole number
   * in [0, dim). False only means "not shown": the runtime then runs its own check, which names the bad entry.
   * It sees the very argument object the kernel will get next, fresh for each call.
   */
  indicesValid?(st: SparseData): boolean;
  /**
   * The bytes the backend holds between calls for tensors it was given (the wasm backend keeps a tensor's indices
   * and values prepared in its memory), which count against the runtime's byte budget.
   */
  residentBytes?(): number;
  /**
   * Holds at most `bytes` between calls from now on, letting go of the least recently used first: the runtime
   * calls it before each kernel with what its byte budget leaves beside that call's own outputs and working memory.
   */
  limitResident?(bytes: number): void;
  /**
   * Keeps a tensor's prepared form now, as its first call would make it, if the backend keeps one and it fits
   * (`Runtime.prepare`; a SparseTensor's indices are checked in bounds by then). Never throws for want of room.
   */
  prepare?(data: SparseData | DenseData | CsrData): void;
  /** Lets go of whatever it holds for these arrays (a disposed tensor's indices and values). */
  forget?(arrays: readonly object[]): void;
  /** The GPU device its kernels run on, if it has one (the webgpu backend's GPUDevice). */
  device?: unknown;
  /**
   * Takes a buffer of its device as values (`Runtime.fromGPUBuffer`), as they are: `onRelease` is called once they
   * are let go and the work recorded on them is submitted. A TypeError where the buffer cannot be taken.
   */
  adoptBuffer?(buffer: unknown, dtype: DType, length: number, onRelease?: () => void): DeviceValues;
  /** Lets go of everything it holds between calls, and gives back the memory it can. It stays usable. */
  dispose?(): void | Promise<void>;
}

/**
 * Makes a backend; it gets the options of the `createRuntime` or `setBackend` call that asked for it, and may
 * ignore them (`createGpuBackend` of `@sparse/kernels-gpu` fits as it is).
 */
export type BackendLoader =
  ((options: RuntimeOptions) => Backend | Promise<Backend>) | (() => Backend | Promise<Backend>);

const loaders = new Map<string, BackendLoader>();

/**
 * Registers a backend under a name (replacing any of that name); its loader runs when a runtime asks for it (so
 * wasm and gpu load on demand). A bundled app registers the GPU backend this way:
 * `registerBackend('gpu', createGpuBackend)`, with `createGpuBackend` from `@sparse/kernels-gpu`.
 */
export function registerBackend(name: string, loader: BackendLoader): void {
  loaders.set(name, loader);
}

/** The registered backend names. */
export function listBackends(): string[] {
  return [...loaders.keys()];
}

/** Loads a registered backend, or says which ones there are. */
export async function loadBackend(name: string, options: RuntimeOptions = {}): Promise<Backend> {
  const loader = loaders.get(name);
  if (!loader) {
    throw new Error(`unknown backend '${name}': the registered backends are ${listBackends().join(', ')}`);
  }
  return (loader as (options: RuntimeOptions) => Backend | Promise<Backend>)(options);
}
