import type { DType, Scalar, Values } from './generated/kernel-types.js';
import { newBuffer, POOL_MIN_BYTES } from './storage.js';

/**
 * A value store of `n` elements in the dtype's storage (bool as 0/1 bytes, string as ''), zero-filled unless
 * `zeroed` is false, which only a caller that writes every element passes. A large numeric store may reuse the
 * buffer of a disposed result of the same size (storage.ts).
 */
export function allocValues(dtype: DType, n: number, zeroed = true): Values {
  switch (dtype) {
    case 'float32':
      return n * 4 < POOL_MIN_BYTES ? new Float32Array(n) : new Float32Array(newBuffer(n * 4, zeroed));
    case 'float64':
      return n * 8 < POOL_MIN_BYTES ? new Float64Array(n) : new Float64Array(newBuffer(n * 8, zeroed));
    case 'int32':
      return n * 4 < POOL_MIN_BYTES ? new Int32Array(n) : new Int32Array(newBuffer(n * 4, zeroed));
    case 'int64':
      return n * 8 < POOL_MIN_BYTES ? new BigInt64Array(n) : new BigInt64Array(newBuffer(n * 8, zeroed));
    case 'bool':
      return new Uint8Array(n);
    case 'string':
      return emptyStrings(n);
  }
}

/** The Float64Array of `n` index entries a kernel returns, zero-filled unless `zeroed` is false (see allocValues). */
export function allocIndices(n: number, zeroed = true): Float64Array {
  return n * 8 < POOL_MIN_BYTES ? new Float64Array(n) : new Float64Array(newBuffer(n * 8, zeroed));
}

// V8 keeps `new Array(n)` in fast storage only up to about 2^25 elements; past that it makes a dictionary, tens of
// bytes and a slow fill per element (60M took 45 s and 2.6 GB). Grown by push, an array stays packed.
const FAST_ARRAY_MAX = 2 ** 25;

function emptyStrings(n: number): string[] {
  if (n <= FAST_ARRAY_MAX) return new Array<string>(n).fill('');
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push('');
  return out;
}

/** An element as the dtype's storage holds it: bool → 0/1, int64 → bigint, the rest unchanged. */
export function storageValue(dtype: DType, v: Scalar): number | bigint | string {
  switch (dtype) {
    case 'bool':
      return v === true || v === 1 ? 1 : 0;
    case 'int64':
      return typeof v === 'bigint' ? v : BigInt(v as number);
    default:
      return v as number | string;
  }
}

/** A store of `n` copies of `v`. */
export function filledValues(dtype: DType, n: number, v: Scalar): Values {
  // Strings are filled once, with `v`: a new string store would first be filled with '' for nothing.
  if (dtype === 'string') return new Array<string>(n).fill(v as string);
  const out = allocValues(dtype, n);
  const s = storageValue(dtype, v);
  // A new store is already zero: filling it again with +0 would only touch every page of a large one.
  if (Object.is(s, 0) || s === 0n) return out;
  (out as unknown as { fill(x: unknown): void }).fill(s);
  return out;
}

/** Element `i` of a store, in storage form. */
export type Element = number | bigint | string;

/** Writes `src[j]` into `dst[i]`; both stores hold the same dtype. */
export function copyValue(dst: Values, i: number, src: Values, j: number): void {
  (dst as unknown as Element[])[i] = src[j];
}

/** A new store of the same dtype holding `src[order[k]]` at `k`. */
export function takeValues(src: Values, dtype: DType, order: ArrayLike<number>): Values {
  const out = allocValues(dtype, order.length);
  for (let k = 0; k < order.length; k++) copyValue(out, k, src, order[k]);
  return out;
}

/** Whether element `i` is the dtype's zero: 0 or -0, 0n, false, ''. NaN is not zero. */
export function isZeroAt(values: Values, i: number): boolean {
  const v = values[i];
  return v === 0 || v === 0n || v === '';
}
