import { isImmutable, type SparseData, type Values } from '@sparse/kernel-abi';
import { HeapExhausted, type Heap } from './heap.js';
import type { WasmExports } from './wasm-module.js';

/**
 * Prepared operands: a tensor's indices (narrowed to i32) and values kept in wasm memory between calls, so that
 * repeated calls on the same tensor do not copy it in again; with, for a matrix, its CSR row pointers. Keyed on the
 * identity of the arrays, and only for arrays marked immutable (kernel-abi's `markImmutable`: a SparseTensor's own
 * storage, which never changes and which the runtime hands to kernels as it is); anything else is copied in for the
 * call, as before. A prepared copy goes when its array is garbage-collected (a FinalizationRegistry), when it is
 * forgotten (a disposed tensor), when it is the least recently used and the bytes held would pass the limit the
 * runtime sets from its byte budget, and all of them at once when the module moves to a fresh instance (whose
 * memory is new) or the backend is disposed. A copy is exactly what the kernel would have copied in itself, so a
 * result never depends on whether its operands were prepared.
 */

/** How a matrix's entries lie by row: CSR row pointers (m + 1 i32) at `ptr`, meaningful when `rowsOrdered`. */
export interface RowIndex {
  ptr: number;
  m: number;
  /** The rows never decrease from one entry to the next: row r's entries are ptr[r] .. ptr[r + 1]. */
  rowsOrdered: boolean;
  /** Row-major order, repeats allowed: the rows never decrease, nor the columns within a row. */
  canonical: boolean;
}

interface Entry {
  ptr: number;
  bytes: number;
  rows?: RowIndex & { bytes: number };
  gen: number;
  used: number;
  freed: boolean;
}

/** What the cache has done, for tests and the bench. */
export interface PreparedStats {
  /** Arrays copied into resident memory so far. */
  uploads: number;
  /** Bytes held between calls. */
  residentBytes: number;
  /** Arrays held. */
  residentArrays: number;
}

export interface PreparedOptions {
  /** Arrays smaller than this are copied in per call (default 64 KiB: below it the copy costs less than a lookup saves). */
  minBytes?: number;
  /** The most bytes held until a runtime says otherwise (limitResident). */
  maxBytes?: number;
}

const DEFAULT_MIN_BYTES = 2 ** 16;

export class PreparedCache {
  private readonly indexEntries = new WeakMap<object, Entry>();
  private readonly valueEntries = new WeakMap<object, Entry>();
  // Every live entry, least recently used first (a use moves it to the end).
  private readonly live = new Set<Entry>();
  private readonly finalizer = new FinalizationRegistry<Entry>((e) => this.free(e));
  private gen = 0;
  // Calls so far: an entry used in the current call is not let go to make room for another of the same call.
  private epoch = 0;
  private held = 0;
  private uploads = 0;
  private limit: number;
  private readonly minBytes: number;
  /** While true, nothing new is made resident (a retry after the heap ran out). */
  suspended = false;

  constructor(
    private readonly ctx: { heap: Heap; exports: WasmExports },
    private readonly heapLimit: number,
    options: PreparedOptions = {},
  ) {
    this.minBytes = options.minBytes ?? DEFAULT_MIN_BYTES;
    this.limit = this.cap(options.maxBytes ?? Infinity);
  }

  // Never more than half the wasm memory the kernels may use: the rest is for the calls themselves.
  private cap(bytes: number): number {
    return Math.max(0, Math.min(bytes, this.heapLimit / 2));
  }

  stats(): PreparedStats {
    return { uploads: this.uploads, residentBytes: this.held, residentArrays: this.live.size };
  }

  get bytes(): number {
    return this.held;
  }

  /** The call is over: what it used may be let go for the next one. */
  endCall(): void {
    this.epoch++;
  }

  /** Holds at most `bytes` from now on; lets go of the least recently used now if it holds more. */
  limitTo(bytes: number): void {
    this.limit = this.cap(bytes);
    if (this.held <= this.limit) return;
    for (const e of this.live) {
      if (this.held <= this.limit) break;
      this.free(e);
    }
  }

  /** The i32 indices of `sp`, if they are resident or can be made so; undefined means "copy them for the call". */
  indices(sp: SparseData): number | undefined {
    const key = sp.indices;
    if (key.byteLength < this.minBytes) return undefined;
    const e = this.lookup(this.indexEntries, key);
    if (e) return e.ptr;
    const n = key.length;
    if (!this.eligible(key, n * 4)) return undefined;
    const p = this.upload(this.indexEntries, key, n * 8);
    if (p === undefined) return undefined;
    (this.ctx.heap.view('float64', p, n) as Float64Array).set(key);
    this.ctx.exports.indices_to_i32(p, n, p);
    this.shrink(this.indexEntries.get(key)!, n * 4);
    return p;
  }

  /**
   * The runtime's index check of `sp` into resident memory: the indices copied in as f64, checked and narrowed to
   * i32 in place by `check`, and kept if they pass. Undefined when they are resident already or cannot be made so
   * (the caller checks a copy for the call).
   */
  checkIndices(sp: SparseData, check: (ptr: number) => boolean): boolean | undefined {
    const key = sp.indices;
    if (key.byteLength < this.minBytes || this.lookup(this.indexEntries, key)) return undefined;
    const n = key.length;
    if (!this.eligible(key, n * 4)) return undefined;
    const p = this.upload(this.indexEntries, key, n * 8);
    if (p === undefined) return undefined;
    const e = this.indexEntries.get(key)!;
    (this.ctx.heap.view('float64', p, n) as Float64Array).set(key);
    if (!check(p)) {
      this.free(e);
      return false;
    }
    this.shrink(e, n * 4);
    return true;
  }

  /**
   * A tensor's values (a SparseTensor's values, a dense Tensor's data), if resident or can be made so; undefined
   * means "copy them for the call".
   */
  values(values: Values, bytesPer: number): number | undefined {
    return this.array(values as Values & { byteLength: number }, values.length * bytesPer);
  }

  /**
   * A typed array's bytes (`bytes` of them: its values as wasm memory holds them), if resident or can be made so:
   * a tensor's values, or any array of a CsrMatrix. Undefined means "copy it for the call".
   */
  array(key: Values & { byteLength: number }, bytes: number): number | undefined {
    if (!(key.byteLength >= this.minBytes)) return undefined;
    const e = this.lookup(this.valueEntries, key);
    if (e) return e.ptr;
    if (!this.eligible(key, bytes)) return undefined;
    const p = this.upload(this.valueEntries, key, bytes);
    if (p === undefined) return undefined;
    const v = key as Float32Array;
    this.ctx.heap.u8(p, bytes).set(new Uint8Array(v.buffer, v.byteOffset, bytes));
    return p;
  }

  /**
   * The CSR row pointers of a resident matrix `sp` whose i32 indices are at `idx` (made by `make` into resident
   * memory the first time); undefined when its indices are not resident.
   */
  rows(sp: SparseData, make: (into: number) => RowIndex): RowIndex | undefined {
    if (sp.indices.byteLength < this.minBytes) return undefined;
    const e = this.lookup(this.indexEntries, sp.indices);
    if (!e) return undefined;
    const m = sp.shape[0];
    if (e.rows?.m === m) return e.rows;
    const bytes = (m + 1) * 4;
    if (e.rows) {
      this.ctx.heap.freeResident(e.rows.ptr);
      this.held -= e.rows.bytes;
      e.bytes -= e.rows.bytes;
      e.rows = undefined;
    }
    if (!this.makeRoom(bytes)) return undefined;
    let ptr: number;
    try {
      ptr = this.ctx.heap.allocResident(bytes);
    } catch (err) {
      if (err instanceof HeapExhausted) return undefined;
      throw err;
    }
    this.held += bytes;
    e.bytes += bytes;
    e.rows = { ...make(ptr), bytes };
    return e.rows;
  }

  /** Lets go of what is held for these arrays. */
  forget(arrays: readonly object[]): void {
    for (const a of arrays) {
      for (const map of [this.indexEntries, this.valueEntries]) {
        const e = map.get(a);
        if (!e) continue;
        map.delete(a);
        this.free(e);
      }
    }
  }

  /** Lets go of everything. */
  clear(): void {
    for (const e of this.live) this.free(e);
  }

  /** The module moved to a fresh instance: nothing held is there any more. */
  newInstance(): void {
    for (const e of this.live) {
      e.freed = true;
      this.finalizer.unregister(e);
    }
    this.live.clear();
    this.held = 0;
    this.gen++;
  }

  private lookup(map: WeakMap<object, Entry>, key: object): Entry | undefined {
    const e = map.get(key);
    if (!e || e.freed || e.gen !== this.gen) return undefined;
    e.used = this.epoch;
    this.live.delete(e);
    this.live.add(e);
    return e;
  }

  private eligible(key: object & { byteLength: number }, bytes: number): boolean {
    return !this.suspended && key.byteLength >= this.minBytes && isImmutable(key) && this.makeRoom(bytes);
  }

  // Lets go of entries not used by the current call, least recently used first, until `bytes` more fit the limit.
  private makeRoom(bytes: number): boolean {
    if (bytes > this.limit) return false;
    for (const e of this.live) {
      if (this.held + bytes <= this.limit) break;
      if (e.used === this.epoch) continue;
      this.free(e);
    }
    return this.held + bytes <= this.limit;
  }

  // A new resident block for `key`, registered; `bytes` is what it takes while it is filled. Undefined where wasm
  // memory cannot hold it (the call then copies it in, or runs on the JS kernels if that fails too).
  private upload(map: WeakMap<object, Entry>, key: object, bytes: number): number | undefined {
    let ptr: number;
    try {
      ptr = this.ctx.heap.allocResident(bytes);
    } catch (e) {
      if (e instanceof HeapExhausted) return undefined;
      throw e;
    }
    const e: Entry = { ptr, bytes, gen: this.gen, used: this.epoch, freed: false };
    map.set(key, e);
    this.live.add(e);
    this.held += bytes;
    this.uploads++;
    this.finalizer.register(key, e, e);
    return ptr;
  }

  private shrink(e: Entry, bytes: number): void {
    this.ctx.heap.shrinkResident(e.ptr, bytes);
    this.held -= e.bytes - bytes;
    e.bytes = bytes;
  }

  private free(e: Entry): void {
    if (e.freed || e.gen !== this.gen) return;
    e.freed = true;
    this.finalizer.unregister(e);
    this.live.delete(e);
    if (e.rows) this.ctx.heap.freeResident(e.rows.ptr);
    this.ctx.heap.freeResident(e.ptr);
    this.held -= e.bytes;
  }
}
