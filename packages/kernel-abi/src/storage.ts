// Tensor storage as the runtime and the backends share it: which arrays never change (so a backend may keep a
// prepared copy of them between calls), and the buffers of disposed results, kept for the next results of their size
// (a large new array costs its pages: the OS maps and zeroes each on first touch, inside whatever writes it first).

const immutable = new WeakSet<object>();

/**
 * Marks arrays that never change while they are reachable: a SparseTensor's own indices and values (the runtime
 * marks them; it never gives them out and kernels never write to them). A backend may key a prepared form of such an
 * array on its identity and keep it across calls.
 */
export function markImmutable(a: object, b?: object): void {
  immutable.add(a);
  if (b) immutable.add(b);
}

/** Whether `markImmutable` was told of this very array. */
export function isImmutable(array: object): boolean {
  return immutable.has(array);
}

/** Buffers smaller than this are not pooled: the allocator serves them well, and a pool would only hold them. */
export const POOL_MIN_BYTES = 2 ** 16;
/** The most bytes the pool holds; past it, the longest-held buffers are let go. */
const POOL_MAX_BYTES = 2 ** 28;

// Buffers by exact byte length (repeated calls make results of one size), and every pooled buffer in the order it
// came in, for letting the oldest go.
const bySize = new Map<number, ArrayBuffer[]>();
const arrival = new Set<ArrayBuffer>();
let held = 0;
// The buffers allocValues and allocIndices made: the only ones a disposed tensor gives back (a dense argument may
// be a caller's own typed array, which a kernel could pass through; that one is never reused).
const made = new WeakSet<ArrayBuffer>();

/**
 * Gives back a buffer that nothing uses any more (the runtime, when the last tensor holding it is disposed or
 * collected), for `allocValues` and `allocIndices` to hand out again. Buffers they did not make are ignored.
 */
export function recycleBuffer(buffer: ArrayBuffer): void {
  const bytes = buffer.byteLength;
  if (!made.has(buffer) || bytes < POOL_MIN_BYTES || bytes > POOL_MAX_BYTES || arrival.has(buffer)) return;
  let list = bySize.get(bytes);
  if (!list) bySize.set(bytes, (list = []));
  list.push(buffer);
  arrival.add(buffer);
  held += bytes;
  for (const old of arrival) {
    if (held <= POOL_MAX_BYTES) break;
    drop(old);
  }
}

function drop(buffer: ArrayBuffer): void {
  const list = bySize.get(buffer.byteLength)!;
  list.splice(list.indexOf(buffer), 1);
  if (list.length === 0) bySize.delete(buffer.byteLength);
  arrival.delete(buffer);
  held -= buffer.byteLength;
}

/** The bytes the pool holds for reuse. */
export function pooledBytes(): number {
  return held;
}

/** Lets every pooled buffer go. */
export function clearPool(): void {
  bySize.clear();
  arrival.clear();
  held = 0;
}

/** A pooled buffer of exactly `bytes` bytes, its old contents still there; undefined if there is none. */
export function takePooled(bytes: number): ArrayBuffer | undefined {
  return bytes >= POOL_MIN_BYTES && bySize.has(bytes) ? newBuffer(bytes, false) : undefined;
}

/** Lets the pool take `buffer` back when a tensor holding it is disposed (a new result's, made outside newBuffer). */
export function poolable(buffer: ArrayBuffer): void {
  if (buffer.byteLength >= POOL_MIN_BYTES) made.add(buffer);
}

type Copyable = (Float32Array | Float64Array | Int32Array | BigInt64Array) & {
  slice(): Copyable;
  set(src: ArrayLike<never>): void;
};

/**
 * A copy of `src` (a kernel's result in its own memory, say), as a new array of its type: into a pooled buffer of
 * its size where there is one, else by `slice()` (memory left uninitialized before the copy, where a new zeroed
 * array would clear it first), marked as the pool's to take back when disposed.
 */
export function copyOut<T extends Float32Array | Float64Array | Int32Array | BigInt64Array>(src: T): T {
  const bytes = src.byteLength;
  if (bytes < POOL_MIN_BYTES) return src.slice() as T;
  const list = bySize.get(bytes);
  if (!list) {
    const out = (src as unknown as Copyable).slice();
    made.add(out.buffer as ArrayBuffer);
    return out as unknown as T;
  }
  const out = new (src.constructor as new (b: ArrayBuffer) => Copyable)(newBuffer(bytes, false));
  out.set(src as never);
  return out as unknown as T;
}

/**
 * A buffer of `bytes` bytes for a new result: a pooled one when there is one of that size (its old contents still
 * there: `zeroed` clears it), else a new one. Small buffers are never pooled.
 */
export function newBuffer(bytes: number, zeroed: boolean): ArrayBuffer {
  if (bytes < POOL_MIN_BYTES) return new ArrayBuffer(bytes);
  const list = bySize.get(bytes);
  if (list) {
    const buffer = list.pop()!;
    if (list.length === 0) bySize.delete(bytes);
    arrival.delete(buffer);
    held -= bytes;
    if (zeroed) new Uint8Array(buffer).fill(0);
    return buffer;
  }
  const buffer = new ArrayBuffer(bytes);
  made.add(buffer);
  return buffer;
}
