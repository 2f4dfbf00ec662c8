import { loadBytes } from '#load-bytes';
import { threadsSupported } from '#spawn-thread';
import { ThreadPool } from './thread-pool.js';
import { THREADED_BUILD, checkKernelsModule, type WasmExports } from './wasm-module.js';

/**
 * The threaded build of the kernels, dist/kernels-threads.wasm: the same kernels compiled to import a shared memory
 * (`asc --importMemory --sharedMemory --initialMemory 1`), so that worker threads run them on the same heap.
 * Written as `new URL(literal, import.meta.url)` for bundlers, in a module of its own that the backend imports only
 * when threads are asked for.
 */
export const THREADS_WASM_URL = new URL('./kernels-threads.wasm', import.meta.url);

/** The memory the build declares it starts with (its --initialMemory), in 64 KiB pages. */
const INITIAL_PAGES = 1;

/** Why threads cannot run here, or undefined when they can. */
export { threadsSupported };

/**
 * Where the threaded build is, given where the single-threaded one was asked to load from: beside it, as
 * kernels-threads.wasm (a URL or path naming a file), else the package's own.
 */
export function threadsWasmSource(source: BufferSource | URL | string | undefined): URL | string {
  if (source instanceof URL) return new URL('kernels-threads.wasm', source);
  if (typeof source === 'string') return source.slice(0, source.lastIndexOf('/') + 1) + 'kernels-threads.wasm';
  return THREADS_WASM_URL;
}

export async function compileThreadedKernels(source: URL | string): Promise<WebAssembly.Module> {
  const module = await WebAssembly.compile(await loadBytes(source));
  checkKernelsModule(module, source, THREADED_BUILD);
  return module;
}

/**
 * A fresh shared memory (growable up to `maxBytes`) and the calling thread's instance over it, made synchronously
 * (so that a call that lost its threads can move to clean memory at once). Throws a RangeError where the address
 * space cannot hold such a memory.
 */
export function threadedInstance(module: WebAssembly.Module, maxBytes: number): WasmExports {
  const memory = new WebAssembly.Memory({
    initial: INITIAL_PAGES,
    maximum: Math.max(INITIAL_PAGES, Math.floor(maxBytes / 65536)),
    shared: true,
  });
  return new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as WasmExports;
}

/** threadedInstance, and `threads - 1` worker threads with their own instances over its memory. */
export async function instantiateThreaded(
  module: WebAssembly.Module,
  threads: number,
  maxBytes: number,
): Promise<{ exports: WasmExports; pool: ThreadPool }> {
  const exports = threadedInstance(module, maxBytes);
  const pool = await ThreadPool.start(module, exports.memory, threads - 1);
  return { exports, pool };
}
