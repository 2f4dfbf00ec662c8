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
 * How long the main thread waits for the workers' parts of a call: parts are cut to cost about what its own part
 * cost, so a worker taking WAIT_FACTOR times that, and at least WAIT_MIN_MS, is taken for dead (it may have been
 * killed mid-call, when its exit cannot be seen: the main thread is blocked).
 */
export const WAIT_MIN_MS = 5000;
export const WAIT_FACTOR = 100;

/** A worker that died or stopped answering: the pool is done for. */
export class ThreadsLost extends Error {
  override name = 'ThreadsLost';
}

/**
 * Worker threads that run kernel calls over the backend's shared wasm memory, each with its own instance of the
 * threaded build. The main thread hands each a call through its slot (thread-slot.ts), runs a part itself, then
 * waits for the rest: calls stay synchronous, as every kernel is.
 */
export class ThreadPool {
  private readonly seq: number[];
  private ended = false;
  private died?: (why: string) => void;

  private constructor(
    private readonly slots: ThreadSlot[],
    private readonly threads: SpawnedThread[],
    private readonly index: ReadonlyMap<string, number>,
  ) {
    this.seq = slots.map(() => 0);
    threads.forEach((t, i) =>
      t.onDeath((why) => {
        if (this.ended) return;
        this.terminate();
        this.died?.(`wasm kernel thread ${i + 1} died (${why})`);
      }),
    );
  }

  /**
   * Calls `died` with what happened when a worker dies between calls (its exit or error event: events arrive only
   * then, as calls are synchronous); the pool has ended its other workers by then.
   */
  onDeath(died: (why: string) => void): void {
    this.died = died;
  }

  /** Starts `workers` threads over `memory`, each instantiating `module`; rejects with why one could not start. */
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

  /**
   * Waits for the first `n` workers' calls of `name` to end, given how long the calling thread's own part took
   * (`ownMs`); throws ThreadsLost when one takes past the bound above.
   */
  wait(n: number, name: string, ownMs: number): PartOutcome[] {
    const limit = Math.max(WAIT_MIN_MS, WAIT_FACTOR * ownMs);
    const deadline = performance.now() + limit;
    const out: PartOutcome[] = [];
    for (let i = 0; i < n; i++) {
      const w = this.slots[i].words;
      for (let done = Atomics.load(w, Word.Done); done !== this.seq[i]; done = Atomics.load(w, Word.Done)) {
        const left = deadline - performance.now();
        if (left <= 0)
          throw new ThreadsLost(
            `wasm kernel thread ${i + 1} did not finish its part of ${name} within ${Math.round(limit)} ms: ` +
              'taken for dead',
          );
        // A page's main thread may not block: it spins (the parts are cut to take about as long as its own).
        if (CAN_BLOCK) Atomics.wait(w, Word.Done, done, left);
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
    this.ended = true;
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
