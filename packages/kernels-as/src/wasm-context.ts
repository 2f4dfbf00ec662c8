import type { CsrData, DenseData, Scalar, SparseData } from '@sparse/kernel-abi';
import { indexText, KernelError } from '@sparse/kernel-abi';
import { bytesPerElement, Heap, HeapExhausted } from './heap.js';
import { WASM_BYTES } from './delegation.js';
import { PreparedCache, type PreparedOptions, type RowIndex } from './prepared.js';
import type { WasmExports, WasmFunction } from './wasm-module.js';
import { ThreadsLost, type PartOutcome, type ThreadPool } from './thread-pool.js';
import { balancedCuts, PARALLEL_MIN_WORK } from './split-work.js';
import { isNumeric } from './kernel.js';

const I32_MAX = 2 ** 31 - 1;
const FAST_CHECK_MIN = 16384;

/** One module instance and its heap: what every wasm kernel of a runtime shares. */
export class WasmContext {
  heap: Heap;
  /** The tensors kept prepared in wasm memory between calls (prepared.ts). */
  readonly prepared: PreparedCache;

  constructor(
    public exports: WasmExports,
    private readonly maxHeapBytes?: number,
    prepared?: PreparedOptions,
    private pool?: ThreadPool,
  ) {
    this.heap = new Heap(exports.memory, maxHeapBytes);
    this.prepared = new PreparedCache(this, maxHeapBytes ?? WASM_BYTES, prepared);
    this.watch(pool);
  }

  /**
   * Told when the worker threads are lost (one died, or did not finish its part in time): the backend then runs
   * on one thread. `stale` when a worker may still be running over the current memory (it was taken for dead
   * mid-call and told to stop): the current instance should then be replaced.
   */
  onThreadsLost?: (why: string, stale: boolean) => void;

  /** Moves to a fresh instance of the module (its memory as small as it starts); the old one and all it held go. */
  replaceInstance(exports: WasmExports, pool?: ThreadPool): void {
    this.pool?.terminate();
    this.exports = exports;
    this.pool = pool;
    this.watch(pool);
    this.heap = new Heap(exports.memory, this.maxHeapBytes);
    this.prepared.newInstance();
  }

  private watch(pool: ThreadPool | undefined): void {
    pool?.onDeath((why) => {
      // Between calls: the others are idle, so the current memory stays sound for one thread.
      if (this.pool === pool) this.loseThreads(why, false);
    });
  }

  private loseThreads(why: string, stale: boolean): void {
    this.pool?.terminate();
    this.pool = undefined;
    this.onThreadsLost?.(why, stale);
  }

  /** The threads a call may run on: this one, and the worker threads of a threaded backend. */
  get threads(): number {
    return 1 + (this.pool?.workers ?? 0);
  }

  /**
   * The bounds of the parts a call over [0, n) is cut into for callParts: one part on one thread or for less than
   * PARALLEL_MIN_WORK, else one a thread, of about equal cost (`costBefore(i)`: the cost of [0, i)).
   */
  cuts(n: number, work: number, costBefore: (i: number) => number): number[] {
    return this.threads > 1 && work >= this.parallelMinWork ? balancedCuts(n, this.threads, costBefore) : [0, n];
  }

  /** Below this much work a call runs on one thread (PARALLEL_MIN_WORK; tests lower it to split tiny calls). */
  parallelMinWork = PARALLEL_MIN_WORK;

  /** Ends the worker threads, if any (the backend is being let go). */
  endThreads(): void {
    this.pool?.terminate();
    this.pool = undefined;
  }

  /** Starts a kernel call: the scratch of the last one is free again (a copy the index check staged is kept). */
  begin(): void {
    this.heap.resetKeepingStaged();
  }

  /**
   * `st`'s indices as i32 in wasm memory: its prepared copy (made now if it can be kept), else the copy the index
   * check staged if it checked this very argument (the runtime runs the kernel right after its checks, with the
   * same argument object, fresh each call, so nothing can have changed them), else a new copy for the call,
   * narrowed. Call `begin()` first.
   */
  indicesOf(st: SparseData): number {
    return this.prepared.indices(st) ?? this.heap.claimStaged(st) ?? this.putIndices(st.indices);
  }

  /** `st`'s values in wasm memory: its prepared copy (made now if it can be kept), else a copy for the call. */
  valuesOf(st: SparseData): number {
    return this.prepared.values(st.values, bytesPerElement(st.dtype)) ?? this.heap.putValues(st.dtype, st.values);
  }

  /**
   * A dense operand's data in wasm memory: its prepared copy where it can be kept (a Tensor's own data, which the
   * runtime marks immutable), else a copy for the call.
   */
  dataOf(d: DenseData): number {
    return this.prepared.values(d.data, bytesPerElement(d.dtype)) ?? this.heap.putValues(d.dtype, d.data);
  }

  /**
   * One array of a CsrMatrix in wasm memory (i32 pointers and column indices, or values in the dtype's storage):
   * its prepared copy (made now if it can be kept), else a copy for the call.
   */
  csrArrayOf(a: Int32Array | Float32Array | Float64Array): number {
    return (
      this.prepared.array(a, a.byteLength) ?? this.heap.putArray(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
    );
  }

  /**
   * How a matrix's entries (i32 indices at `idx`, as indicesOf gave them) lie by row: its CSR row pointers and
   * order, kept with its prepared indices, else computed for the call. Linear: one pass over the entries.
   */
  rowIndex(st: SparseData, idx: number): RowIndex {
    const m = st.shape[0];
    const n = st.values.length;
    const make = (ptr: number): RowIndex => {
      const flags = this.exports.csr_rows(idx, n, m, ptr);
      return { ptr, m, rowsOrdered: (flags & 1) !== 0, canonical: (flags & 2) !== 0 };
    };
    return this.prepared.rows(st, make) ?? make(this.heap.alloc((m + 1) * 4));
  }

  /**
   * Keeps a tensor's prepared form now, as its first call would make it (the runtime's `prepare`): a sparse
   * tensor's i32 indices (checked in bounds by the runtime), values and, for a matrix, row pointers; a dense
   * tensor's data; a CSR matrix's arrays. What does not fit the prepared tensors' share of memory is left to be
   * copied in per call, as without it.
   */
  prepare(d: SparseData | DenseData | CsrData): void {
    if (!isNumeric(d.dtype)) return;
    this.heap.reset();
    try {
      if (d.kind === 'dense') this.dataOf(d);
      else if (d.kind === 'csr')
        for (const a of [d.rowPointers, d.colIndices, d.values, d.batchPointers]) this.csrArrayOf(a as Int32Array);
      else if (fitsI32(d.shape)) {
        const idx = this.prepared.indices(d);
        this.valuesOf(d);
        if (idx !== undefined && d.shape.length === 2) this.rowIndex(d, idx);
      }
    } catch (e) {
      if (!(e instanceof HeapExhausted)) throw e;
    } finally {
      this.prepared.endCall();
      this.heap.reset();
    }
  }

  /**
   * Index entries (whole numbers that fit i32) into wasm memory as i32: copied in as f64 (a memcpy) and narrowed
   * in place in wasm, several times faster than Int32Array.set of a Float64Array. Returns the pointer.
   */
  putIndices(indices: Float64Array): number {
    return this.narrow(this.heap.putValues('float64', indices), indices.length);
  }

  /** `begin()`, then `st`'s indices as indicesOf gives them. */
  startWithIndices(st: SparseData): number {
    this.begin();
    return this.indicesOf(st);
  }

  /** 1-D integer ids (int32, or int64 narrowed in wasm: each fits i32, checked by the caller) in as i32. */
  putIds(ids: ArrayLike<number | bigint>): number {
    if (ids instanceof BigInt64Array) {
      const p = this.heap.putValues('int64', ids);
      this.exports.narrow_i64(p, ids.length);
      return p;
    }
    return this.heap.putI32(ids as ArrayLike<number>);
  }

  private narrow(p: number, n: number): number {
    this.exports.indices_to_i32(p, n, p);
    return p;
  }

  /**
   * The runtime's index check (every index a whole number in [0, dim)) as one SIMD pass in wasm: true when every
   * index passes, and the copy, narrowed to i32 by the same pass, stays staged for the kernel. Below
   * FAST_CHECK_MIN numbers the copy costs more than the JS loop saves, and dims past i32 are left to the JS check:
   * both answer false, which only means "check the slow way".
   */
  indicesValid(st: SparseData): boolean {
    const { indices, shape } = st;
    if (indices.length < FAST_CHECK_MIN || !fitsI32(shape)) return false;
    const check = (p: number) => {
      const dims = this.heap.putValues('float64', Float64Array.from(shape));
      return this.exports.indices_valid(p, indices.length, shape.length, dims) !== 0;
    };
    // Checked in the memory where they stay, when they can be kept prepared.
    this.heap.reset();
    const kept = this.prepared.checkIndices(st, check);
    if (kept !== undefined) return kept;
    const ok = check(this.heap.stage(st, indices));
    if (!ok) this.heap.reset();
    return ok;
  }

  /**
   * Calls a family kernel, named at run time by op and dtype (`sparse_add__float32`): codegen emits one export
   * per (op, dtype) the spec allows, so the name is checked here rather than typed.
   */
  callFamily(name: string, args: (number | bigint | boolean)[], where?: { what: string; st: SparseData }): number {
    return this.callFamilyParts(name, [{ args }], where)[0];
  }

  /** callParts for a family kernel, named at run time (as callFamily). */
  callFamilyParts(
    name: string,
    parts: readonly { args: (number | bigint | boolean)[]; entryOffset?: number }[],
    where?: { what: string; st: SparseData },
  ): number[] {
    if (!this.has(name)) throw new Error(`the wasm module has no family kernel ${name}`);
    return this.callParts(name, parts as never, where);
  }

  /** Whether the module exports a function of this name (a family kernel of an (op, dtype) pair, say). */
  has(name: string): name is WasmFunction {
    return typeof (this.exports as Record<string, unknown>)[name] === 'function';
  }

  /**
   * Calls an export once for each part, the parts spread over the threads (the first on this one): each part a
   * range of the work that writes memory no other part touches, so the results are the same, bit for bit, as one
   * call over the whole. The results come back in part order; a failure is reported as `call` reports it, for the
   * first part (in order) that failed, its entry shifted by the part's `entryOffset`.
   */
  callParts<F extends WasmFunction>(
    name: F,
    parts: readonly { args: Parameters<WasmExports[F]>; entryOffset?: number }[],
    where?: { what: string; st: SparseData },
  ): number[] {
    const pool = this.pool;
    if (!pool || parts.length === 1) return parts.map((p) => this.call(name, p.args, where) as number);
    const away = parts.slice(1).map((p) => p.args as unknown as (number | bigint | boolean)[]);
    pool.dispatch(name, away);
    let here: PartOutcome | undefined;
    let trap: unknown;
    const start = performance.now();
    try {
      const fn = this.exports[name] as (...a: unknown[]) => number;
      this.exports.clearError();
      const result = fn(...parts[0].args);
      const errorCode = this.exports.lastErrorCode();
      here = { result, errorCode, errorEntry: this.exports.lastErrorEntry(), trapped: false };
    } catch (e) {
      trap = e;
    }
    // The other threads finish before anything else touches the heap, even when this part trapped.
    const outcomes = this.waitForParts(pool, away.length, name, performance.now() - start);
    if (here === undefined) throw trap;
    const all = [here, ...outcomes];
    all.forEach((o, k) => {
      if (o.trapped) throw new Error(`wasm kernel ${name} trapped in a worker thread`);
      if (o.errorCode !== 0) throw this.kernelError(o.errorCode, o.errorEntry + (parts[k].entryOffset ?? 0), where);
    });
    return all.map((o) => o.result);
  }

  /** pool.wait; where a worker is lost, the threads go and the call fails, saying so. */
  private waitForParts(pool: ThreadPool, n: number, name: string, ownMs: number): PartOutcome[] {
    try {
      return pool.wait(n, name, ownMs);
    } catch (e) {
      if (!(e instanceof ThreadsLost)) throw e;
      this.loseThreads(e.message, true);
      throw new Error(`${e.message}; this call is lost, and the backend runs on one thread from now on`, { cause: e });
    }
  }

  /**
   * Calls an export, with its arguments typed by its AssemblyScript signature; a failure the kernel recorded
   * becomes the JS backend's error.
   */
  call<F extends WasmFunction>(
    name: F,
    args: Parameters<WasmExports[F]>,
    where?: { what: string; st: SparseData },
  ): ReturnType<WasmExports[F]> {
    const fn = this.exports[name] as (...a: unknown[]) => ReturnType<WasmExports[F]>;
    this.exports.clearError();
    const result = fn(...args);
    const code = this.exports.lastErrorCode();
    if (code !== 0) throw this.kernelError(code, this.exports.lastErrorEntry(), where);
    return result;
  }

  private kernelError(code: number, i: number, where?: { what: string; st: SparseData }): Error {
    const at = where ? ` at ${where.what}[${i}] = ${indexText(where.st.indices, i, where.st.shape.length)}` : '';
    return KernelError.fromCode(code, at);
  }
}

/** Whether every dim fits i32, so indices can go into wasm as i32. */
export function fitsI32(shape: readonly number[]): boolean {
  return shape.every((d) => d <= I32_MAX);
}

/** Scalars as wasm parameters: bools as 0/1, int64 as bigint. */
export function scalarArg(v: Scalar): number | bigint {
  return typeof v === 'boolean' ? (v ? 1 : 0) : (v as number | bigint);
}
