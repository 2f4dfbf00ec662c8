import { POOL_MIN_BYTES, recycleBuffer } from '@sparse/kernel-abi';
import type { Backend } from './backend.js';

/**
 * The life of a tensor's storage. A SparseTensor's indices and values never change and are never given out, so
 * they are marked immutable when first handed to a kernel (sparseDataOf: a backend may keep a prepared copy of them
 * between calls, keyed on them, and lets it go when they are collected). When a tensor is disposed, every backend that may hold a prepared copy of its
 * arrays is told to drop it, and each large buffer no other live tensor holds goes back to kernel-abi's pool for
 * the next result of its size.
 *
 * A tensor that is collected without dispose() gives nothing to the pool: that would take keeping its buffers
 * alive until a finalization callback runs, which in a loop that never yields is never, so memory would only grow.
 * Its buffers are freed by the garbage collector as before, and a buffer it shared stays counted as held (never
 * pooled: the safe side).
 */

type Stored = ArrayLike<unknown> & { buffer?: ArrayBufferLike };

// How many live tensors hold each large buffer (a result may share storage with an input: withValues, a kernel
// that passes an array through). Small buffers are not counted: they are never pooled.
const owners = new WeakMap<ArrayBufferLike, number>();

// Backends that keep prepared copies of tensor storage, as weak references: a runtime that is gone lets its backend go.
const holders = new Set<WeakRef<Backend>>();

/** Called by a Runtime for its backend: tensors disposed from now on are forgotten by it too. */
export function addHolder(backend: Backend): void {
  if (backend.forget) holders.add(new WeakRef(backend));
}

/** Storage taken by a new tensor (its one or two arrays): its large buffers counted. Returns those, for `dispose`. */
export function adoptStorage(a: Stored, b?: Stored): ArrayBufferLike[] {
  // byteLength first: reading `buffer` of a small typed array makes V8 move it out of its heap. A small array is
  // never part of a pooled buffer (those are whole results of POOL_MIN_BYTES or more).
  const bigA = byteLength(a) >= POOL_MIN_BYTES;
  const bigB = b !== undefined && byteLength(b) >= POOL_MIN_BYTES;
  if (!bigA && !bigB) return NO_BUFFERS;
  const large: ArrayBufferLike[] = [];
  if (bigA) count(a.buffer!, large);
  if (bigB) count(b.buffer!, large);
  return large;
}

function byteLength(x: Stored): number {
  return (x as { byteLength?: number }).byteLength ?? 0;
}

function count(buffer: ArrayBufferLike, large: ArrayBufferLike[]): void {
  if (large.includes(buffer)) return;
  owners.set(buffer, (owners.get(buffer) ?? 0) + 1);
  large.push(buffer);
}

const NO_BUFFERS: ArrayBufferLike[] = [];

/**
 * A tensor disposed: every backend drops what it holds for its arrays (but for an array another live tensor still
 * holds, as a result shares its input's indices: what a backend keeps for it stays right), and its large buffers no
 * other tensor holds are given back.
 */
export function disposeStorage(arrays: readonly Stored[], buffers: ArrayBufferLike[]): void {
  const stillHeld = new Set<ArrayBufferLike>();
  const released: ArrayBufferLike[] = [];
  for (const b of buffers) {
    const n = (owners.get(b) ?? 1) - 1;
    if (n > 0) {
      owners.set(b, n);
      stillHeld.add(b);
    } else {
      owners.delete(b);
      released.push(b);
    }
  }
  const gone = stillHeld.size
    ? arrays.filter((a) => !(byteLength(a) >= POOL_MIN_BYTES && stillHeld.has(a.buffer!)))
    : arrays;
  for (const ref of holders) {
    const backend = ref.deref();
    if (backend) backend.forget!(gone as unknown as object[]);
    else holders.delete(ref);
  }
  for (const b of released) if (b instanceof ArrayBuffer) recycleBuffer(b);
}
