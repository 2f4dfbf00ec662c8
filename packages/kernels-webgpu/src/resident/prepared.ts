/// <reference types="@webgpu/types" />
import { magnitude as M, magnitudesOf, type CsrData, type DenseData, type SparseData } from '@sparse/kernel-abi';
import type { WebGpuContext } from '../context.js';
import { allNormal } from '../delegation.js';

/** A tensor's values kept on the GPU: the buffer and, for float32, their magnitudes. */
export interface PreparedValues {
  buffer: GPUBuffer;
  bound: M.Maybe;
}

/** Buffers whose host arrays were collected: given back to the pool. */
const collected = new FinalizationRegistry<() => void>((giveBack) => giveBack());

/**
 * Values uploaded once (`rt.prepare`), keyed on the host array they copy, so that the at-once kernels bind them
 * where they are instead of uploading them again on every call: a graph's adjacency, an embedding table. A tensor's
 * arrays never change (the runtime marks them immutable), so the copy stays right; it is given back when the tensor
 * is disposed (`forget`) or collected. Only float32 and int32 values the GPU takes as they are (finite, zero or
 * normal) are kept.
 */
export class PreparedArrays {
  readonly #kept = new WeakMap<object, PreparedValues & { token: object }>();

  constructor(private readonly ctx: WebGpuContext) {}

  /** Keeps a tensor's values (a dense tensor's data) on the GPU, where they fit in a binding and in `heldLimit`. */
  keep(data: SparseData | DenseData | CsrData): void {
    const values = data.kind === 'dense' ? data.data : data.values;
    const float = values instanceof Float32Array;
    if (!(float || values instanceof Int32Array) || this.#kept.has(values) || values.length === 0) return;
    if (!this.ctx.fits(values.byteLength) || this.ctx.roomLeft() < values.byteLength) return;
    if (float && !allNormal(values)) return;
    const buffer = this.ctx.upload(values);
    const token = {};
    const bytes = values.byteLength;
    this.ctx.heldBytes += bytes;
    this.#kept.set(values, { buffer, bound: float ? magnitudesOf(values) : undefined, token });
    const ctx = this.ctx;
    collected.register(
      values,
      () => {
        ctx.heldBytes -= bytes;
        ctx.releaseAfterSubmit(buffer);
      },
      token,
    );
  }

  /** The kept copy of a host array, if there is one. */
  get(values: object): PreparedValues | undefined {
    return this.#kept.get(values);
  }

  /** Gives back what is kept for these arrays (a disposed tensor's). */
  forget(arrays: readonly object[]): void {
    for (const a of arrays) {
      const kept = this.#kept.get(a);
      if (!kept) continue;
      this.#kept.delete(a);
      collected.unregister(kept.token);
      this.ctx.heldBytes -= (a as Float32Array).byteLength;
      this.ctx.releaseAfterSubmit(kept.buffer);
    }
  }
}
