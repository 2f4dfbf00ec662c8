import { copyOut, poolable, takePooled, type DType, type Scalar, type Values } from '@sparse/kernel-abi';
import { WASM_BYTES } from './delegation.js';

type NumericStorage = Float32Array | Float64Array | Int32Array | BigInt64Array;
type Ctor = {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): NumericStorage;
  BYTES_PER_ELEMENT: number;
};

const STORAGE: Partial<Record<DType, Ctor>> = {
  float32: Float32Array,
  float64: Float64Array,
  int32: Int32Array,
  int64: BigInt64Array,
};

export function bytesPerElement(dtype: 'float32' | 'int32'): 4;
export function bytesPerElement(dtype: 'float64' | 'int64'): 8;
export function bytesPerElement(dtype: DType): 4 | 8;
export function bytesPerElement(dtype: DType): 4 | 8 {
  return STORAGE[dtype]!.BYTES_PER_ELEMENT as 4 | 8;
}

/** A call needs more wasm memory than the kernels may have: the backend runs it on the JS kernels instead. */
export class HeapExhausted extends Error {
  override name = 'HeapExhausted';
  constructor(
    readonly bytes: number,
    readonly limit: number,
    cause?: unknown,
  ) {
    super(`a wasm heap of ${bytes} bytes (the kernels may use ${limit})`, { cause });
  }
}

/**
 * The wasm heap as the JS side lays it out, above the module's own data: resident blocks, which outlive a call (the
 * prepared tensors of prepared.ts), then the scratch of the current call, a bump allocator reset before every
 * kernel call. Memory grows to the largest need seen and is reused after that, so it never leaks.
 *
 * Resident blocks go into the first gap between the blocks below the scratch that fits; else at the scratch's start
 * when the scratch is empty (the scratch then starts above them), else above the scratch in use (the next reset
 * starts the scratch above them, and the space below becomes a gap).
 */
export class Heap {
  private readonly base: number;
  // Where the scratch starts: above every resident block as of the last reset.
  private scratch: number;
  private top: number;
  private staged?: { owner: object; ptr: number; end: number };
  // Resident blocks by address: [start, end) pairs, flat.
  private readonly blocks: number[] = [];
  private residentTotal = 0;

  /** `limit`: the most bytes of wasm memory the kernels may use (WASM_BYTES unless a test or a page says less). */
  constructor(
    private readonly memory: WebAssembly.Memory,
    private readonly limit = WASM_BYTES,
  ) {
    this.base = this.scratch = this.top = memory.buffer.byteLength;
  }

  get bytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** The bytes of the resident blocks. */
  get residentBytes(): number {
    return this.residentTotal;
  }

  reset(): void {
    const n = this.blocks.length;
    this.scratch = this.top = n === 0 ? this.base : Math.max(this.base, align(this.blocks[n - 1]));
    this.staged = undefined;
  }

  /**
   * Resets the heap and copies `indices` in as f64 at its base, staged for the next kernel (`resetKeepingStaged`, `claimStaged`)
   * (the index check narrows them to i32 there in place).
   */
  stage(owner: object, indices: Float64Array): number {
    this.reset();
    const ptr = this.putValues('float64', indices);
    this.staged = { owner, ptr, end: this.top };
    return ptr;
  }

  /** Resets the heap but keeps the staged copy, if any, for `claimStaged`. */
  resetKeepingStaged(): void {
    const s = this.staged;
    this.reset();
    // Kept only where the scratch still starts at or below it (a resident block made since may sit above it).
    if (!s || s.ptr < this.scratch) return;
    this.top = s.end;
    this.staged = s;
  }

  /** The staged copy's pointer if `owner` staged it (once); undefined otherwise. */
  claimStaged(owner: object): number | undefined {
    const s = this.staged;
    if (s?.owner !== owner) return undefined;
    this.staged = undefined;
    return s.ptr;
  }

  /** `bytes` bytes that outlive the call, 16-aligned; a HeapExhausted error where wasm memory cannot hold them. */
  allocResident(bytes: number): number {
    const b = this.blocks;
    let prev = this.base;
    for (let i = 0; i <= b.length; i += 2) {
      const p = align(prev);
      const next = i < b.length ? b[i] : this.scratch;
      if (p + bytes <= next && p + bytes <= this.scratch) {
        b.splice(i, 0, p, p + bytes);
        this.residentTotal += bytes;
        return p;
      }
      if (i < b.length) prev = b[i + 1];
    }
    const empty = this.top === this.scratch;
    const p = this.alloc(bytes);
    b.push(p, p + bytes);
    this.residentTotal += bytes;
    if (empty) this.scratch = this.top;
    return p;
  }

  /** Frees the resident block at `ptr`. */
  freeResident(ptr: number): void {
    const i = this.blockAt(ptr);
    this.residentTotal -= this.blocks[i + 1] - ptr;
    this.blocks.splice(i, 2);
  }

  /** Keeps the first `bytes` of the resident block at `ptr` and frees the rest. */
  shrinkResident(ptr: number, bytes: number): void {
    const i = this.blockAt(ptr);
    this.residentTotal -= this.blocks[i + 1] - (ptr + bytes);
    this.blocks[i + 1] = ptr + bytes;
  }

  /** Frees every resident block. */
  freeAllResident(): void {
    this.blocks.length = 0;
    this.residentTotal = 0;
  }

  // The flat index of the block starting at ptr (binary search: blocks are kept in address order).
  private blockAt(ptr: number): number {
    const b = this.blocks;
    let lo = 0;
    let hi = b.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (b[2 * mid] < ptr) lo = mid + 1;
      else hi = mid;
    }
    if (b[2 * lo] !== ptr) throw new Error(`no resident block at ${ptr}`);
    return 2 * lo;
  }

  /** `bytes` bytes, 16-aligned for SIMD; a HeapExhausted error where wasm memory cannot grow that far. */
  alloc(bytes: number): number {
    const p = Math.ceil(this.top / 16) * 16;
    const end = p + bytes;
    if (end > this.limit) throw new HeapExhausted(end, this.limit);
    if (end > this.memory.buffer.byteLength) {
      try {
        this.memory.grow(Math.ceil((end - this.memory.buffer.byteLength) / 65536));
      } catch (e) {
        // The engine refused (the platform's own limit, or no memory left): the call runs on the JS kernels.
        throw new HeapExhausted(end, this.limit, e);
      }
    }
    this.top = end;
    return p;
  }

  /** A view of `n` elements of the dtype at `ptr` (a new view: growing the memory detaches old ones). */
  view(dtype: DType, ptr: number, n: number): NumericStorage {
    return new STORAGE[dtype]!(this.memory.buffer, ptr, n);
  }

  u8(ptr: number, n: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, ptr, n);
  }

  i32(ptr: number, n: number): Int32Array {
    return new Int32Array(this.memory.buffer, ptr, n);
  }

  /** Moves `bytes` bytes from `from` down to `to` (the ranges may overlap). */
  move(from: number, bytes: number, to: number): void {
    if (from !== to) new Uint8Array(this.memory.buffer).copyWithin(to, from, from + bytes);
  }

  /** Copies values in; returns the pointer. */
  putValues(dtype: DType, values: Values): number {
    const p = this.alloc(values.length * bytesPerElement(dtype));
    this.view(dtype, p, values.length).set(values as never);
    return p;
  }

  /** Copies a typed array in as it is (its bytes); returns the pointer. */
  putArray(data: Uint8Array | Uint32Array | BigInt64Array): number {
    const p = this.alloc(data.byteLength);
    new Uint8Array(this.memory.buffer, p, data.byteLength).set(
      new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    );
    return p;
  }

  /** One value of the dtype (4 or 8 bytes), stored as the dtype's typed array stores it; returns the pointer. */
  putScalar(dtype: DType, v: Scalar): number {
    const p = this.alloc(8);
    this.view(dtype, p, 1)[0] = (dtype === 'int64' ? BigInt(v as number | bigint) : v) as never;
    return p;
  }

  /** Copies whole numbers in as i32 (the caller has checked they fit); returns the pointer. */
  putI32(values: ArrayLike<number>): number {
    const p = this.alloc(values.length * 4);
    this.i32(p, values.length).set(values);
    return p;
  }

  /** A zeroed buffer of `n` elements. */
  zeros(dtype: DType | 'i32', n: number): number {
    const p = this.alloc(n * (dtype === 'i32' ? 4 : bytesPerElement(dtype)));
    (dtype === 'i32' ? this.i32(p, n) : this.view(dtype, p, n)).fill((dtype === 'int64' ? 0n : 0) as never);
    return p;
  }

  /**
   * Copies `n` values out into a new array of the dtype's storage (a pooled buffer of a disposed result where there
   * is one of that size: memory already mapped, where a new large array would fault in every page as it is written).
   */
  readValues(dtype: DType, ptr: number, n: number): Values {
    return copyOut(this.view(dtype, ptr, n)) as Values;
  }

  /** Copies `n` i32 whole numbers out as the Float64Array indices kernels speak (into a pooled buffer if any). */
  readIndices(ptr: number, n: number): Float64Array {
    const pooled = takePooled(n * 8);
    if (pooled) {
      const out = new Float64Array(pooled);
      out.set(this.i32(ptr, n));
      return out;
    }
    // Converted as it is copied, into memory the engine does not clear first.
    const out = new Float64Array(this.i32(ptr, n));
    poolable(out.buffer);
    return out;
  }
}

function align(p: number): number {
  return Math.ceil(p / 16) * 16;
}
