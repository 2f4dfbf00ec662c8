/// <reference types="@webgpu/types" />
import { isImmutable } from '@sparse/kernel-abi';
import type { WebGpuContext } from '../context.js';

/** A buffer the at-once kernels bind as it is: an operand already on the GPU. */
export interface OnGpu {
  buffer: GPUBuffer;
  bound: undefined;
  screened: true;
}

/** What a kernel makes of a tensor's indices alone: host facts, and arrays it binds (on the GPU once kept). */
export interface Structure<H, K extends string> {
  host: H;
  arrays: Record<K, Uint32Array | OnGpu>;
}

interface Entry {
  host: unknown;
  arrays: Record<string, OnGpu>;
  bytes: number;
  live: boolean;
}

/** The most bytes the cache holds, beside a quarter of what the GPU may hold between calls. */
const MAX_BYTES = 256 * 2 ** 20;

/** Entries of collected indices arrays: given back. */
const collected = new FinalizationRegistry<() => void>((giveBack) => giveBack());

/**
 * What the at-once kernels make of a tensor's indices alone (an SpMM's grouping of a matrix by rows, a reduction's
 * groups and layout), made and uploaded once for a tensor used call after call (a graph's adjacency, the operand of
 * a chain or a training loop) and kept on the GPU: keyed on its indices array, which never changes where the runtime
 * marked it immutable (a SparseTensor's own), and on what else it depends on. Other indices are worked on anew each
 * call, in host memory. Counted in the bytes the GPU holds; the least recently used go first past min(256 MiB, a
 * quarter of `heldLimit`), and an entry goes when its tensor is disposed (`forget`) or collected.
 */
export class StructureCache {
  readonly #byIndices = new WeakMap<object, Map<string, Entry>>();
  /** Least recently used first. */
  readonly #lru = new Set<Entry>();
  #bytes = 0;

  constructor(private readonly ctx: WebGpuContext) {}

  /** What `make` makes of `indices` under `key`: kept (its arrays on the GPU) where it can be. */
  of<H, K extends string>(
    indices: object,
    key: string,
    make: () => { host: H; arrays: Record<K, Uint32Array> },
  ): Structure<H, K> {
    const hit = this.#byIndices.get(indices)?.get(key);
    if (hit?.live) {
      this.#lru.delete(hit);
      this.#lru.add(hit);
      return hit as unknown as Structure<H, K>;
    }
    const made = make();
    const arrays = Object.values(made.arrays) as Uint32Array[];
    const bytes = arrays.reduce((n, a) => n + a.byteLength, 0);
    const cap = Math.min(MAX_BYTES, this.ctx.heldLimit / 4);
    if (!isImmutable(indices) || bytes > cap || !arrays.every((a) => this.ctx.fits(a.byteLength))) return made;
    for (const old of this.#lru) {
      if (this.#bytes + bytes <= cap) break;
      this.#release(old);
    }
    if (this.ctx.roomLeft() < bytes) return made;
    const onGpu: Record<string, OnGpu> = {};
    for (const [name, a] of Object.entries(made.arrays) as [string, Uint32Array][])
      onGpu[name] = { buffer: this.ctx.upload(a), bound: undefined, screened: true };
    const entry: Entry = { host: made.host, arrays: onGpu, bytes, live: true };
    let entries = this.#byIndices.get(indices);
    if (!entries) {
      const kept = new Map<string, Entry>();
      this.#byIndices.set(indices, kept);
      collected.register(indices, () => kept.forEach((e) => this.#release(e)), kept);
      entries = kept;
    }
    entries.set(key, entry);
    this.#lru.add(entry);
    this.#bytes += bytes;
    this.ctx.heldBytes += bytes;
    return entry as unknown as Structure<H, K>;
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
    this.ctx.releaseAfterSubmit(...Object.values(e.arrays).map((a) => a.buffer));
  }
}
