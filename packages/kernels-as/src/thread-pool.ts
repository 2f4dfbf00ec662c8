import { CAN_BLOCK, spawnThread, type SpawnedThread } from '#spawn-thread';
import { EXIT, ThreadSlot, Word } from './thread-slot.js';

/** How one part of a call went on its thread. */
export interface PartOutcome {
  result: number;
  errorCode: number;
  errorEntry: number;
  trapped: boolean;
}

/**
 * Worker threads that run kernel calls over the backend's shared wasm memory, each with its own instance of the
 * threaded build. The main thread hands each a call through its slot (thread-slot.ts), runs a part itself, then
 * waits for the rest: calls stay synchronous, as every kernel is.
 */
export class ThreadPool {
  private readonly seq: number[];

  private constructor(
    private readonly slots: ThreadSlot[],
    private readonly threads: SpawnedThread[],
    private readonly index: ReadonlyMap<string, number>,
  ) {
    this.seq = slots.map(() => 0);
  }

  /** Starts `workers` threads over `memory`, each instantiating `module`. */
  static async start(module: WebAssembly.Module, memory: WebAssembly.Memory, workers: number): Promise<ThreadPool> {
    const names = WebAssembly.Module.exports(module)
      .filter((e) => e.kind === 'function')
      .map((e) => e.name);
    const slots = Array.from({ length: workers }, () => ThreadSlot.create());
    const started = await Promise.allSettled(
      slots.map((slot) => spawnThread({ module, memory, slot: slot.buffer, names })),
    );
    const threads = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) {
      for (const t of threads) t.terminate();
      throw (failed as PromiseRejectedResult).reason;
    }
    return new ThreadPool(slots, threads, new Map(names.map((n, i) => [n, i])));
  }

  /** The worker threads (a call's parts run on them and on the calling thread). */
  get workers(): number {
    return this.slots.length;
  }

  /** Hands `parts[i]` to worker i (at most `workers` parts); `wait` then reads how each went. */
  dispatch(name: string, parts: readonly (readonly (number | bigint | boolean)[])[]): void {
    const fn = this.index.get(name);
    if (fn === undefined) throw new Error(`the threaded wasm module has no export ${name}`);
    parts.forEach((args, i) => {
      const slot = this.slots[i];
      slot.words[Word.Fn] = fn;
      slot.writeArgs(args);
      this.handOver(i);
    });
  }

  /** Waits for the first `n` workers' calls to end. */
  wait(n: number): PartOutcome[] {
    const out: PartOutcome[] = [];
    for (let i = 0; i < n; i++) {
      const w = this.slots[i].words;
      for (let done = Atomics.load(w, Word.Done); done !== this.seq[i]; done = Atomics.load(w, Word.Done)) {
        // A page's main thread may not block: it spins (the parts are cut to take about as long as its own).
        if (CAN_BLOCK) Atomics.wait(w, Word.Done, done);
      }
      out.push({
        result: w[Word.Result],
        errorCode: w[Word.ErrorCode],
        errorEntry: w[Word.ErrorEntry],
        trapped: w[Word.Trapped] === 1,
      });
    }
    return out;
  }

  /** Ends every worker thread. */
  terminate(): void {
    this.slots.forEach((slot, i) => {
      slot.words[Word.Fn] = EXIT;
      this.handOver(i);
    });
    for (const t of this.threads) t.terminate();
  }

  private handOver(i: number): void {
    const w = this.slots[i].words;
    this.seq[i] = (this.seq[i] + 1) | 0;
    Atomics.store(w, Word.Seq, this.seq[i]);
    Atomics.notify(w, Word.Seq);
  }
}
