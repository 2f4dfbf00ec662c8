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
