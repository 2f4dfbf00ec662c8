/// <reference types="@webgpu/types" />
import { isImmutable, type SparseData } from '@sparse/kernel-abi';
import type { WebGpuContext } from '../context.js';
import { rowOrder } from '../matmul/spmm.js';

/** A buffer the at-once kernels bind as it is: an operand already on the GPU. */
export interface OnGpu {
  buffer: GPUBuffer;
  bound: undefined;
  screened: true;
}

/**
 * A rank-2 sparse matrix's entries grouped by one coordinate, as the SpMM kernels read them (rowOrder): the row
 * offsets, each entry's other coordinate in row order and where each entry goes, in host memory or on the GPU.
 */
export interface Grouped {
  rowPtr: Uint32Array | OnGpu;
  col: Uint32Array | OnGpu;
  to: Uint32Array | OnGpu;
  longest: number;
}

interface Entry {
  rowPtr: OnGpu;
  col: OnGpu;
  to: OnGpu;
  longest: number;
  bytes: number;
  live: boolean;
}

/** The most bytes the cache holds, beside a quarter of what the GPU may hold between calls. */
const MAX_BYTES = 256 * 2 ** 20;

/** Entries of collected indices arrays: given back. */
const collected = new FinalizationRegistry<() => void>((giveBack) => giveBack());

/**
 * The grouping of a matrix used call after call (a graph's adjacency, an SpMM's sparse operand in a chain or a
 * training loop), made and uploaded once and kept on the GPU: keyed on its indices array, which never changes where
 * the runtime marked it immutable (a SparseTensor's own), so that such a call sorts and uploads nothing of its
 * structure. Other indices are grouped anew on each call, in host memory. Counted in the bytes the GPU holds; the
 * least recently used go first past min(256 MiB, a quarter of `heldLimit`), and an entry goes when its tensor is
 * disposed (`forget`) or collected.
 */
export class GroupedRowsCache {
  readonly #byIndices = new WeakMap<object, Map<string, Entry>>();
  /** Least recently used first. */
  readonly #lru = new Set<Entry>();
  #bytes = 0;

  constructor(private readonly ctx: WebGpuContext) {}

  /** `sp`'s entries grouped by coordinate `rowDim` (of extent `rows`): kept on the GPU where they can be. */
  of(sp: SparseData, rowDim: 0 | 1, rows: number): Grouped {
    const indices = sp.indices as object;
    const key = `${rowDim}:${rows}`;
    const hit = this.#byIndices.get(indices)?.get(key);
    if (hit?.live) {
      this.#lru.delete(hit);
      this.#lru.add(hit);
      return hit;
    }
    const order = rowOrder(sp, rowDim, rows);
    const bytes = 4 * (order.rowPtr.length + 2 * order.col.length);
    const cap = Math.min(MAX_BYTES, this.ctx.heldLimit / 4);
    if (!isImmutable(indices) || bytes > cap || !this.ctx.fits(4 * order.col.length)) return order;
    for (const old of this.#lru) {
      if (this.#bytes + bytes <= cap) break;
      this.#release(old);
    }
    if (this.ctx.roomLeft() < bytes) return order;
    const onGpu = (a: Uint32Array): OnGpu => ({ buffer: this.ctx.upload(a), bound: undefined, screened: true });
    const entry: Entry = {
      rowPtr: onGpu(order.rowPtr),
      col: onGpu(order.col),
      to: onGpu(order.to),
      longest: order.longest,
      bytes,
      live: true,
    };
    let entries = this.#byIndices.get(indices);
    if (!entries) {
      const made = new Map<string, Entry>();
      this.#byIndices.set(indices, made);
      collected.register(indices, () => made.forEach((e) => this.#release(e)), made);
      entries = made;
    }
    entries.set(key, entry);
    this.#lru.add(entry);
    this.#bytes += bytes;
    this.ctx.heldBytes += bytes;
    return entry;
  }

  /** Gives back what is kept for these arrays (a disposed tensor's indices). */
  forget(arrays: readonly object[]): void {
    for (const a of arrays) {
      const entries = this.#byIndices.get(a);
      if (!entries) continue;
      this.#byIndices.delete(a);
      collected.unregister(entries);
      entries.forEach((e) => this.#release(e));
    }
  }

  #release(e: Entry): void {
    if (!e.live) return;
    e.live = false;
    this.#lru.delete(e);
    this.#bytes -= e.bytes;
    this.ctx.heldBytes -= e.bytes;
    this.ctx.releaseAfterSubmit(e.rowPtr.buffer, e.col.buffer, e.to.buffer);
  }
}
