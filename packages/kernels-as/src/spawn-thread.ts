import type { ThreadInit } from './thread-serve.js';

export interface SpawnedThread {
  /** Ends the thread (its death is not reported then). */
  terminate(): void;
  /** Calls `died` with what happened if the thread fails or ends on its own (where the platform says so). */
  onDeath(died: (why: string) => void): void;
}

/** How long a thread may take to start before it counts as failed: generous, as a loaded machine starts slowly. */
export const START_TIMEOUT_MS = 30_000;

/**
 * Starts a wasm kernel thread in a browser (a module Web Worker), resolved once its instance is ready; rejected,
 * with what went wrong, when it fails first or is not ready within START_TIMEOUT_MS. Written as
 * `new Worker(new URL(literal, import.meta.url))`, the form bundlers (webpack 5, Vite) recognise and bundle.
 * Node takes spawn-thread-node.ts instead (the package's `#spawn-thread` import, by export condition).
 */
export function spawnThread(init: ThreadInit): Promise<SpawnedThread> {
  return new Promise((resolve, reject) => {
    // Inline, as bundlers recognise it (Vite bundles the worker's imports only in this form).
    const worker = new Worker(new URL('./thread-worker.js', import.meta.url), { type: 'module' });
    const fail = (why: string) => {
      clearTimeout(timer);
      worker.onerror = worker.onmessage = null;
      worker.terminate();
      reject(
        new Error(`a wasm kernel thread did not start: ${why} (thread-worker.js belongs beside the backend's module)`),
      );
    };
    const timer = setTimeout(() => fail(`not ready after ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    worker.onerror = (e) => fail(e.message || 'its module did not load');
    worker.onmessage = () => {
      clearTimeout(timer);
      worker.onerror = worker.onmessage = null;
      resolve({
        terminate: () => {
          worker.onerror = null;
          worker.terminate();
        },
        // A Web Worker that closes itself says nothing: the pool's wait timeouts catch that.
        onDeath: (died) => (worker.onerror = (e) => died(`it threw ${e.message || 'an error'}`)),
      });
    };
    worker.postMessage(init);
  });
}

/** A page's main thread may not block on Atomics.wait (a worker may): it spins instead. */
export const CAN_BLOCK = typeof (globalThis as { document?: unknown }).document === 'undefined';

/**
 * Why threads cannot run here, if they cannot: shared memory needs a cross-origin isolated page (COOP and COEP
 * headers), and workers.
 */
export function threadsSupported(): string | undefined {
  const g = globalThis as { crossOriginIsolated?: boolean; Worker?: unknown };
  if (typeof SharedArrayBuffer !== 'function' || g.crossOriginIsolated === false)
    return 'SharedArrayBuffer needs a cross-origin isolated page (COOP and COEP headers)';
  if (typeof g.Worker !== 'function') return 'Web Workers are not available';
  return undefined;
}
