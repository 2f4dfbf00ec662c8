/** Every typed array kind; conversion reads them as lists, as it reads arrays. */
export type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/**
 * What conversion takes as a list: an array or a typed array. Never an object that only claims a `length`: such a
 * claim costs nothing to send (`{"length": 1000000000}` in a request body) and would be believed by the first copy.
 */
export function isList(x: unknown): x is readonly unknown[] | TypedArray {
  return Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));
}

type TypedArrayConstructor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => TypedArray;

const INTRINSIC: Record<string, TypedArrayConstructor> = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
};

// The engine's own getters, taken once: they read a typed array's internal slots, which no subclass or own property
// can change (called on anything else they throw).
const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
const intrinsicGetter = (key: PropertyKey) =>
  Object.getOwnPropertyDescriptor(typedArrayPrototype, key)!.get! as (this: unknown) => unknown;
const kindOf = intrinsicGetter(Symbol.toStringTag);
const bufferOf = intrinsicGetter('buffer');
const byteOffsetOf = intrinsicGetter('byteOffset');
const lengthOf = intrinsicGetter('length');

/**
 * A list as conversion may trust it: an array as it is; a typed array as a new view of its intrinsic class over the
 * same memory, made through the engine's getters. A typed-array subclass (or own property) may override `slice`,
 * `length`, `buffer` and every other method; a copy made through them could keep the caller's storage or read the
 * wrong part of it. Indexed reads of a typed array cannot be overridden, so the view reads what the caller's does.
 */
export function trustedList<T>(x: T): T {
  const kind = ArrayBuffer.isView(x) ? (kindOf.call(x) as string | undefined) : undefined;
  if (kind === undefined) return x; // an array, or a DataView (which conversion refuses)
  return new INTRINSIC[kind](
    bufferOf.call(x) as ArrayBufferLike,
    byteOffsetOf.call(x) as number,
    lengthOf.call(x) as number,
  ) as T;
}
