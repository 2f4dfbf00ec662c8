import type { ThreadInit } from './thread-serve.js';

export interface SpawnedThread {
  terminate(): void;
}

/**
 * Starts a wasm kernel thread in a browser (a module Web Worker), resolved once its instance is ready. Written as
 * `new Worker(new URL(literal, import.meta.url))`, the form bundlers (webpack 5, Vite) recognise and bundle.
 * Node takes spawn-thread-node.ts instead (the package's `#spawn-thread` import, by export condition).
 */
export function spawnThread(init: ThreadInit): Promise<SpawnedThread> {
  // Inline, as bundlers recognise it (Vite bundles the worker's imports only in this form).
  const worker = new Worker(new URL('./thread-worker.js', import.meta.url), { type: 'module' });
  return new Promise((resolve, reject) => {
    worker.onerror = (e) => {
      worker.terminate();
      const why = e.message || 'its module did not load';
      reject(
        new Error(`a wasm kernel thread did not start: ${why} (thread-worker.js belongs beside the backend's module)`),
      );
    };
    worker.onmessage = () => {
      worker.onerror = null;
      resolve({ terminate: () => worker.terminate() });
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
