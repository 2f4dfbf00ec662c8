import { Worker } from 'node:worker_threads';
import type { ThreadInit } from './thread-serve.js';
import type { SpawnedThread } from './spawn-thread.js';

/**
 * Starts a wasm kernel thread in Node (worker_threads), resolved once its instance is ready. It does not keep the
 * process alive (unref). Picked by the `node` condition of the package's `#spawn-thread` import.
 */
export function spawnThread(init: ThreadInit): Promise<SpawnedThread> {
  const worker = new Worker(new URL('./thread-worker-node.js', import.meta.url));
  worker.unref();
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => {
      worker.off('error', reject);
      resolve({ terminate: () => void worker.terminate() });
    });
    worker.postMessage(init);
  });
}

/** Whether this thread may block on Atomics.wait (Node's main thread may). */
export const CAN_BLOCK = true;

/** Whether threads can run here: shared memory and workers. */
export function threadsSupported(): string | undefined {
  return typeof SharedArrayBuffer === 'function' ? undefined : 'SharedArrayBuffer is not available';
}
