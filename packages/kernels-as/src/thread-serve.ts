import { EXIT, ThreadSlot, Word } from './thread-slot.js';

/** What a worker thread is started with. */
export interface ThreadInit {
  /** The threaded build of the kernels (imports its memory). */
  module: WebAssembly.Module;
  /** The backend's shared memory. */
  memory: WebAssembly.Memory;
  /** This thread's slot (thread-slot.ts). */
  slot: SharedArrayBuffer;
  /** The exports it may be asked to call, by index. */
  names: string[];
}

type Export = (...args: (number | bigint)[]) => number;
interface ErrorExports {
  clearError(): void;
  lastErrorCode(): number;
  lastErrorEntry(): number;
}

/**
 * A worker thread's life: its own instance of the kernels over the shared memory, then one call after another as
 * the main thread hands them over in its slot, until told to exit. It blocks between calls (Atomics.wait), which a
 * worker may do; it never allocates wasm memory (the main thread lays out the heap) and touches only the ranges
 * its calls name.
 */
export function serveThread(init: ThreadInit, ready: () => void): void {
  const instance = new WebAssembly.Instance(init.module, { env: { memory: init.memory } });
  const exports = instance.exports as unknown as ErrorExports & Record<string, Export>;
  const fns = init.names.map((name) => exports[name]);
  const slot = new ThreadSlot(init.slot);
  const w = slot.words;
  // Read before saying ready: a call handed over after that must be seen as new.
  let seen = Atomics.load(w, Word.Seq);
  ready();
  for (;;) {
    Atomics.wait(w, Word.Seq, seen);
    seen = Atomics.load(w, Word.Seq);
    const fn = w[Word.Fn];
    if (fn === EXIT) return;
    try {
      exports.clearError();
      w[Word.Result] = fns[fn](...slot.readArgs()) | 0;
      w[Word.ErrorCode] = exports.lastErrorCode();
      w[Word.ErrorEntry] = exports.lastErrorEntry();
      w[Word.Trapped] = 0;
    } catch {
      w[Word.Trapped] = 1;
    }
    Atomics.store(w, Word.Done, seen);
    Atomics.notify(w, Word.Done);
  }
}
