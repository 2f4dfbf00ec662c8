import { assembleKernels, delegate } from '@sparse/kernel-abi';
import { kernels as jsKernels } from '@sparse/kernels-js';
import { FAMILY_OPS } from './generated/family-ops.js';
import { REASONS } from './delegation.js';
import { InstanceSource } from './instance-source.js';
import { warn } from './warn.js';
import { WasmContext } from './wasm-context.js';
import { HeapExhausted } from './heap.js';
import { warmUp } from './warm-up.js';
import { cwiseKernel } from './families/cwise.js';
import { mapKernel } from './families/map.js';
import { mergeKernel } from './families/merge.js';
import { reduceKernel } from './families/reduce.js';
import { cwiseGradKernel, mapGradKernel, mergeGradKernel, reduceGradKernel } from './families/gradients.js';
import { HAND_WRITTEN, JS_DISPATCHED } from './generated/kernel-table.js';
import type { CsrData, DenseData, SparseData } from '@sparse/kernel-abi';
import type { PreparedStats } from './prepared.js';
import type { Kernel, JsKernel } from './kernel.js';

export { HAND_WRITTEN };

/** The ops whose specs run them on the JS kernels here (`dispatch: {wasm: js}`), with the reason reported. */
export const DELEGATED_OPS: Readonly<Record<string, string>> = Object.fromEntries(
  JS_DISPATCHED.map((op) => [op, REASONS.notPorted]),
);

const FAMILY_DRIVERS = {
  cwise: cwiseKernel,
  merge: mergeKernel,
  reduce: reduceKernel,
  map: (ctx: WasmContext, op: string, meta: never) => mapKernel(ctx, op, meta),
  cwise_grad: cwiseGradKernel,
  merge_grad: mergeGradKernel,
  reduce_grad: reduceGradKernel,
  map_grad: (ctx: WasmContext, op: string, meta: never) => mapGradKernel(ctx, op, meta),
};

export interface WasmBackendOptions {
  /**
   * The most bytes of wasm memory the kernels may use (default 2 GiB); a call that needs more runs on the JS
   * kernels, reported as delegated. Lower it where a page must keep its memory small.
   */
  maxHeapBytes?: number;
  /**
   * The most bytes of tensors kept prepared in wasm memory between calls until a runtime sets it from its byte
   * budget (default: half of maxHeapBytes, the most ever kept). 0 keeps none.
   */
  maxResidentBytes?: number;
  /** Arrays smaller than this are copied in for each call instead of kept (default 64 KiB). */
  residentMinBytes?: number;
  /**
   * Run a few small calls of the common kernels and map 16 MiB of wasm memory when the backend is made (default
   * true), so that a first call runs about as fast as later ones (warm-up.ts says why); about 35 ms.
   */
  warmUp?: boolean;
  /**
   * The threads a call may run on (default 1): with more, the backend runs the threaded build of the kernels over
   * a shared memory, with `threads - 1` worker threads (worker_threads in Node, Web Workers in a cross-origin
   * isolated page), and splits the big linear passes between them (the products, reductions by row, element-wise
   * ops, merges of two sparse tensors), each thread writing its own part of the result: results are the same, bit
   * for bit, as on one thread. Where shared memory is not available (a page that is not cross-origin isolated)
   * the backend runs on one thread and says why (`threadsNote`).
   */
  threads?: number;
  /**
   * With threads: below this much work (entries, or multiply-adds for a product) a call runs on one thread, since
   * handing parts over costs more (default 65536). For tuning, and for tests that split tiny calls.
   */
  parallelMinWork?: number;
}

export interface WasmBackend {
  name: 'wasm';
  kernels: Record<string, Kernel>;
  /**
   * The threads its calls run on: 1, or the `threads` asked for where shared memory is available and until its
   * threads fail (a worker that dies or does not start): it then runs on one thread, with a warning.
   */
  readonly threads: number;
  /** Why it runs on fewer threads than asked for, if it does. */
  readonly threadsNote?: string;
  /** The bytes of wasm memory held: grows to the largest call, and is given back after a call past 64 MiB. */
  memoryBytes(): number;
  /**
   * Gives the wasm memory back now: a fresh instance of the module replaces the current one, with the memory it
   * starts with. The backend does this by itself, between calls, after one that left more than 64 MiB behind (if
   * no fresh instance can be had then, it keeps the one it has, with a warning). Rejects, keeping the current
   * instance, where none can be made.
   */
  releaseMemory(): Promise<void>;
  /** The runtime's index check, in wasm (see WasmContext.indicesValid). */
  indicesValid(st: SparseData): boolean;
  /** The bytes of tensors kept prepared in wasm memory between calls (prepared.ts). */
  residentBytes(): number;
  /** Uploads so far, bytes and arrays kept prepared. */
  residentStats(): PreparedStats;
  /** Keeps at most `bytes` of prepared tensors from now on (the runtime: what its byte budget leaves a call). */
  limitResident(bytes: number): void;
  /** Keeps a tensor's prepared form now, as its first call would make it (WasmContext.prepare). */
  prepare(data: SparseData | DenseData | CsrData): void;
  /** Lets go of what is kept prepared for these arrays (a disposed tensor's). */
  forget(arrays: readonly object[]): void;
  /** Lets go of every prepared tensor and gives the wasm memory back (a fresh instance). It stays usable. */
  dispose(): Promise<void>;
}

/** Above this, the memory a call left behind is given back once it returns (wasm memory cannot shrink). */
const RELEASE_ABOVE = 64 * 2 ** 20;

/**
 * A kernel as the backend runs it: a call that would need more wasm memory than it may have (WASM_BYTES, or what
 * the engine grants) runs on the JS kernels, declared, never a failed `Memory.grow`; and after a call that left
 * the memory large, a fresh instance replaces it (asynchronously, between calls).
 */
function withinWasmMemory(ctx: WasmContext, kernel: Kernel, js: JsKernel, releaseMemory: () => void): Kernel {
  const { prepared } = ctx;
  return (args) => {
    try {
      return kernel(args);
    } catch (e) {
      if (!(e instanceof HeapExhausted)) throw e;
      let err = e;
      if (prepared.bytes > 0) {
        // The prepared tensors take room this call needs: let them go, and try once more without keeping any.
        prepared.clear();
        prepared.suspended = true;
        try {
          return kernel(args);
        } catch (again) {
          if (!(again instanceof HeapExhausted)) throw again;
          err = again;
        } finally {
          prepared.suspended = false;
        }
      }
      ctx.heap.reset();
      return delegate(js, args, REASONS.heapExhausted(err.bytes, err.limit));
    } finally {
      prepared.endCall();
      // What the prepared tensors hold is in use: only the rest counts as left behind.
      if (ctx.heap.bytes - prepared.bytes > RELEASE_ABOVE) releaseMemory();
    }
  };
}

/**
 * A wasm backend: one module instance with its own heap. Every op is here: in wasm (the family ops from their
 * spec expressions, the rest by hand, one file per op under kernels/), or run on the JS kernels where its spec
 * says so (DELEGATED_OPS).
 */
export async function createWasmBackend(
  wasm?: BufferSource | URL | string,
  options: WasmBackendOptions = {},
): Promise<WasmBackend> {
  const source = await InstanceSource.create(wasm, checkThreads(options.threads), options.maxHeapBytes);
  const first = await source.instantiate();
  const ctx = new WasmContext(
    first.exports,
    options.maxHeapBytes,
    { maxBytes: options.maxResidentBytes, minBytes: options.residentMinBytes },
    first.pool,
  );
  if (options.parallelMinWork !== undefined) ctx.parallelMinWork = options.parallelMinWork;
  ctx.onThreadsLost = (why, stale) => {
    source.lose(`lost its threads: ${why}`);
    if (!stale) return;
    try {
      ctx.replaceInstance(source.instanceNow());
    } catch {
      // No memory to be had: the current one stays, its workers told to stop (they stop at their next loop turn).
    }
  };
  let releasing: Promise<void> | undefined;
  const releaseMemory = () =>
    (releasing ??= source
      .instantiate()
      .then(({ exports, pool }) => ctx.replaceInstance(exports, pool))
      .finally(() => (releasing = undefined)));
  let releaseWarned = false;
  // Between calls, with nobody to tell but the app: a failure keeps the current instance, said once.
  const releaseInBackground = () =>
    void releaseMemory().catch((e: Error) => {
      if (releaseWarned) return;
      releaseWarned = true;
      warn(`sparse: ${e.message}; it keeps its current memory`, 'SPARSE_WASM_RELEASE_FAILED');
    });
  const kernels = assembleKernels<WasmContext, Kernel>({
    js: jsKernels as unknown as Record<string, JsKernel>,
    context: ctx,
    family: (op, js) => {
      const family = FAMILY_OPS[op];
      if (!family) return undefined;
      const driver = FAMILY_DRIVERS[family.family] as (
        c: WasmContext,
        o: string,
        m: typeof family,
        j: JsKernel,
      ) => Kernel;
      return driver(ctx, op, family, js as JsKernel);
    },
    handWritten: HAND_WRITTEN,
    delegated: JS_DISPATCHED,
    delegate: (op, js) => (args) => delegate(js as JsKernel, args, DELEGATED_OPS[op]),
    wrap: (kernel, js) => withinWasmMemory(ctx, kernel, js as JsKernel, releaseInBackground),
  });
  if (options.warmUp !== false) {
    const threads = ctx.threads;
    try {
      warmUp(ctx, kernels);
    } catch (e) {
      // Threads lost in a warm-up call (said by a warning): warm up again, on one thread.
      if (ctx.threads === threads) throw e;
      warmUp(ctx, kernels);
    }
  }
  const backend: WasmBackend = {
    name: 'wasm',
    kernels,
    get threads() {
      return ctx.threads;
    },
    get threadsNote() {
      return source.note;
    },
    memoryBytes: () => ctx.heap.bytes,
    releaseMemory,
    indicesValid: (st) => ctx.indicesValid(st),
    residentBytes: () => ctx.prepared.bytes,
    residentStats: () => ctx.prepared.stats(),
    limitResident: (bytes) => ctx.prepared.limitTo(bytes),
    prepare: (data) => ctx.prepare(data),
    forget: (arrays) => ctx.prepared.forget(arrays),
    dispose: async () => {
      ctx.prepared.clear();
      await releaseMemory();
    },
  };
  // Worker threads outlive every reference to them: end them once the backend is unreachable.
  if (ctx.threads > 1) unreachable.register(backend, ctx);
  return backend;
}

const unreachable = new FinalizationRegistry<WasmContext>((ctx) => ctx.endThreads());

function checkThreads(threads: number | undefined): number {
  if (threads === undefined) return 1;
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS)
    throw new TypeError(`createWasmBackend: threads must be a whole number from 1 to ${MAX_THREADS}, got ${threads}`);
  return threads;
}

/** More threads than this is a mistake, not a machine. */
const MAX_THREADS = 256;
