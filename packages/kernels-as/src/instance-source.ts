import { WASM_BYTES } from './delegation.js';
import type { ThreadPool } from './thread-pool.js';
import { compileKernels, instantiateKernels, type WasmExports } from './wasm-module.js';
import { warn } from './warn.js';

export type Instance = { exports: WasmExports; pool?: ThreadPool };

type Threaded = {
  lib: typeof import('./threaded-kernels.js');
  module: WebAssembly.Module;
  threads: number;
  limit: number;
};

/** The code of the warning given when a backend falls back to one thread. */
export const THREADS_LOST = 'SPARSE_WASM_THREADS_LOST';

/**
 * How the backend makes an instance of the kernels (at first, and after a call that left its memory large): the
 * single-threaded build, or, for `threads` > 1 where shared memory is available, the threaded build over a fresh
 * shared memory with its worker threads, until threads fail (a memory the address space cannot hold, a worker
 * that does not start or dies): from then on the single-threaded build, said once by a warning and by `note`.
 */
export class InstanceSource {
  /** Why the backend runs on fewer threads than asked for, if it does. */
  note?: string;
  private single?: Promise<WebAssembly.Module>;
  private lost = false;

  private constructor(
    private readonly wasm: BufferSource | URL | string | undefined,
    private readonly threaded?: Threaded,
  ) {}

  static async create(wasm: BufferSource | URL | string | undefined, threads: number, maxHeapBytes?: number) {
    if (threads === 1) return new InstanceSource(wasm);
    const lib = await import('./threaded-kernels.js');
    const why = lib.threadsSupported();
    if (why) {
      const source = new InstanceSource(wasm);
      source.note = why;
      return source;
    }
    const module = await lib.compileThreadedKernels(lib.threadsWasmSource(wasm));
    const limit = Math.min(maxHeapBytes ?? WASM_BYTES, WASM_BYTES);
    return new InstanceSource(wasm, { lib, module, threads, limit });
  }

  /** A fresh instance; where threads fail to start, one on a single thread (and threads are lost for good). */
  async instantiate(): Promise<Instance> {
    const t = this.threaded;
    if (t && !this.lost) {
      try {
        const made = await t.lib.instantiateThreaded(t.module, t.threads, t.limit);
        if (!this.lost) return made;
        made.pool.terminate();
      } catch (e) {
        this.lose(`could not start its threads (${(e as Error).message})`);
      }
    }
    const module = await (this.single ??= compileKernels(this.wasm));
    try {
      return { exports: await instantiateKernels(module) };
    } catch (e) {
      throw new Error(`the wasm backend could not make an instance of its kernels: ${(e as Error).message}`, {
        cause: e,
      });
    }
  }

  /**
   * A fresh memory and instance now, for a call that lost its threads mid-call (a worker may still run over the
   * old memory): the threaded build, on this thread alone. Throws where no memory can be had.
   */
  instanceNow(): WasmExports {
    const t = this.threaded;
    if (!t) throw new Error('the wasm backend has no threads to lose');
    return t.lib.threadedInstance(t.module, t.limit);
  }

  /** Later instances run on one thread: says why (what the backend did: "lost its threads: …"), once. */
  lose(why: string): void {
    if (this.lost) return;
    this.lost = true;
    this.note = `${why}; it runs on one thread`;
    warn(`sparse: the wasm backend ${this.note}`, THREADS_LOST);
  }
}
