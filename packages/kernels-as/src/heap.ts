import type { DType, Scalar, Values } from '@sparse/kernel-abi';
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
 * The wasm heap as the JS side lays it out: a bump allocator above the module's own data, reset before every
 * kernel call. Memory grows to the largest call seen and is reused after that, so it never leaks.
 */
export class Heap {
  private readonly base: number;
  private top: number;
  private staged?: { owner: object; ptr: number; end: number };

  /** `limit`: the most bytes of wasm memory the kernels may use (WASM_BYTES unless a test or a page says less). */
  constructor(
    private readonly memory: WebAssembly.Memory,
    private readonly limit = WASM_BYTES,
  ) {
    this.base = this.top = memory.buffer.byteLength;
  }

  get bytes(): number {
    return this.memory.buffer.byteLength;
  }

  reset(): void {
    this.top = this.base;
    this.staged = undefined;
  }

  /**
   * Resets the heap and copies `indices` in as f64 at its base, staged for the next kernel's `resetKeeping(owner)`
   * (the index check narrows them to i32 there in place).
   */
  stage(owner: object, indices: Float64Array): number {
    this.reset();
    const ptr = this.putValues('float64', indices);
    this.staged = { owner, ptr, end: this.top };
    return ptr;
  }

  /**
   * Resets the heap but keeps the staged copy if `owner` staged it, returning its pointer (once: a reset drops
   * it); undefined otherwise.
   */
  resetKeeping(owner: object): number | undefined {
    const s = this.staged;
    this.reset();
    if (s?.owner !== owner) return undefined;
    this.top = s.end;
    return s.ptr;
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

  i32(ptr: number, n: number): Int32Array {
    return new Int32Array(this.memory.buffer, ptr, n);
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

  /** Copies `n` values out into a new array of the dtype's storage. */
  readValues(dtype: DType, ptr: number, n: number): Values {
    return this.view(dtype, ptr, n).slice() as Values;
  }

  /** Copies `n` i32 whole numbers out as the Float64Array indices kernels speak. */
  readIndices(ptr: number, n: number): Float64Array {
    return new Float64Array(this.i32(ptr, n));
  }
}
