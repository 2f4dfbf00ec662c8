import { Worker } from 'node:worker_threads';
import type { ThreadInit } from './thread-serve.js';
import { START_TIMEOUT_MS, type SpawnedThread } from './spawn-thread.js';

/**
 * Starts a wasm kernel thread in Node (worker_threads), resolved once its instance is ready; rejected, with what
 * went wrong, when it cannot be made, fails or exits before that, or is not ready within START_TIMEOUT_MS. Once
 * ready it does not keep the process alive (unref). Picked by the `node` condition of the package's `#spawn-thread`
 * import.
 */
export function spawnThread(init: ThreadInit): Promise<SpawnedThread> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./thread-worker-node.js', import.meta.url), { execArgv: workerExecArgv() });
    } catch (e) {
      // ERR_WORKER_INIT_FAILED, out of memory
      reject(new Error(`a wasm kernel thread did not start: ${(e as Error).message}`, { cause: e }));
      return;
    }
    worker.unref();
    const fail = (why: string, cause?: unknown) => {
      clearTimeout(timer);
      worker.removeAllListeners();
      void worker.terminate();
      reject(new Error(`a wasm kernel thread did not start: ${why}`, { cause }));
    };
    const timer = setTimeout(() => fail(`not ready after ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    worker.once('error', (e) => fail(e.message, e));
    worker.once('exit', (code) => fail(`it exited with code ${code}`));
    worker.once('message', () => {
      clearTimeout(timer);
      worker.removeAllListeners();
      resolve({
        terminate: () => {
          worker.removeAllListeners();
          void worker.terminate();
        },
        onDeath: (died) => {
          worker.once('error', (e) => died(`it threw ${e.message}`));
          worker.once('exit', (code) => died(`it exited with code ${code}`));
        },
      });
    });
    worker.postMessage(init);
  });
}

/**
 * The process's Node options, less `--input-type` (which a worker refuses: it is for code given on the command
 * line, as in `node --input-type=module -e`).
 */
function workerExecArgv(): string[] {
  const out: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const a = process.execArgv[i];
    if (a === '--input-type') i++;
    else if (!a.startsWith('--input-type=')) out.push(a);
  }
  return out;
}

/** Whether this thread may block on Atomics.wait (Node's main thread may). */
export const CAN_BLOCK = true;

/** Whether threads can run here: shared memory and workers. */
export function threadsSupported(): string | undefined {
  return typeof SharedArrayBuffer === 'function' ? undefined : 'SharedArrayBuffer is not available';
}
