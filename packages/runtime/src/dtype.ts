import { allocValues, type DType, type Values, type Scalar } from '@sparse/kernel-abi';
import { InvalidArgumentError } from './errors.js';

export type { DType, Values, Scalar };

export const DTYPES: readonly DType[] = ['float32', 'float64', 'int32', 'int64', 'bool', 'string'];

export function isDType(x: unknown): x is DType {
  return typeof x === 'string' && (DTYPES as readonly string[]).includes(x);
}

export function isIntegerDType(dtype: DType): boolean {
  return dtype === 'int32' || dtype === 'int64';
}

/** The dtype's zero, as TensorFlow's `zeros([], dtype)`: 0, 0n, false or ''. */
export function zeroOf(dtype: DType): Scalar {
  switch (dtype) {
    case 'int64':
      return 0n;
    case 'bool':
      return false;
    case 'string':
      return '';
    default:
      return 0;
  }
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The dtype TensorFlow gives a Python value: ints → int32 (int64 past int32's range), floats → float32. */
export function inferDType(items: ArrayLike<unknown>, what: string): DType {
  let sawFloat = false;
  let sawWideInt = false;
  let kind: 'number' | 'bigint' | 'boolean' | 'string' | undefined;
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    const t = typeof x;
    if (t !== 'number' && t !== 'bigint' && t !== 'boolean' && t !== 'string') {
      throw new TypeError(`${what}[${i}]: cannot make a tensor of ${describe(x)}`);
    }
    const k = t === 'bigint' ? 'number' : (t as 'number' | 'boolean' | 'string');
    if (kind !== undefined && kind !== k) throw new TypeError(`${what}[${i}]: mixed value kinds: ${kind} and ${t}`);
    kind = k;
    if (t === 'bigint') sawWideInt = true;
    else if (t === 'number') {
      const v = x as number;
      if (!Number.isInteger(v)) sawFloat = true;
      else if (v < INT32_MIN || v > INT32_MAX) sawWideInt = true;
    }
  }
  if (kind === 'boolean') return 'bool';
  if (kind === 'string') return 'string';
  if (kind === undefined || sawFloat) return 'float32';
  return sawWideInt ? 'int64' : 'int32';
}

/** The dtype a typed array stands for, or undefined for a plain array. */
export function dtypeOfStorage(values: unknown): DType | undefined {
  if (values instanceof Float32Array) return 'float32';
  if (values instanceof Float64Array) return 'float64';
  if (values instanceof Int32Array) return 'int32';
  if (values instanceof BigInt64Array) return 'int64';
  if (values instanceof Uint8Array) return 'bool';
  return undefined;
}

/** Converts one value to the dtype's storage form, refusing what TensorFlow's conversion refuses. */
export function toScalar(x: unknown, dtype: DType, what: string): Scalar {
  switch (dtype) {
    case 'float32':
    case 'float64': {
      // float32 scalars round as TensorFlow converts them, so kernels see the value the dtype holds.
      const round = dtype === 'float32' ? Math.fround : (v: number) => v;
      if (typeof x === 'number') return round(x);
      if (typeof x === 'bigint') return round(Number(x));
      break;
    }
    case 'int32':
      if (typeof x === 'number' && Number.isInteger(x)) {
        if (x < INT32_MIN || x > INT32_MAX) throw new TypeError(`${what}: ${x} does not fit in int32`);
        return x;
      }
      if (typeof x === 'bigint') {
        if (x < INT32_MIN || x > INT32_MAX) throw new TypeError(`${what}: ${x} does not fit in int32`);
        return Number(x);
      }
      break;
    case 'int64': {
      let v: bigint | undefined;
      if (typeof x === 'bigint') v = x;
      else if (typeof x === 'number' && Number.isSafeInteger(x)) v = BigInt(x);
      else if (typeof x === 'number' && Number.isInteger(x)) throw inexactNumber(x, what);
      else if (typeof x === 'string' && /^-?\d+$/.test(x)) v = BigInt(x);
      if (v !== undefined) {
        if (v < INT64_MIN || v > INT64_MAX) throw new TypeError(`${what}: ${x} does not fit in int64`);
        return v;
      }
      break;
    }
    case 'bool':
      if (typeof x === 'boolean') return x;
      break;
    case 'string':
      if (typeof x === 'string') return x;
      break;
  }
  throw new TypeError(`${what}: ${describe(x)} is not a valid ${dtype} value`);
}

/** A whole JS number past 2^53 - 1 may already have lost digits: refused, not rounded, with the exact spellings. */
function inexactNumber(x: number, what: string): InvalidArgumentError {
  return new InvalidArgumentError(
    `${what}: ${Math.abs(x) < 1e21 ? BigInt(x) : x} is too large to be exact as a JS number (past 2^53 - 1); give an int64 as a bigint or a string of digits`,
  );
}

/**
 * Converts plain values to the dtype's storage. A typed array that already is that storage is taken as it is (the
 * caller copies it if the result outlives the call); bool bytes must be 0 or 1.
 */
export function toValues(items: ArrayLike<unknown>, dtype: DType, what: string): Values {
  if (dtypeOfStorage(items) === dtype) {
    if (dtype === 'bool') checkBoolBytes(items as Uint8Array, what);
    return items as Values;
  }
  const n = items.length;
  // Strings are built in one pass: a new string store would first be filled with '' only to be overwritten.
  if (dtype === 'string') return Array.from(items, (x, i) => toScalar(x, dtype, `${what}[${i}]`) as string);
  const out = allocValues(dtype, n);
  for (let i = 0; i < n; i++) setValue(out, i, toScalar(items[i], dtype, `${what}[${i}]`));
  return out;
}

function checkBoolBytes(bytes: Uint8Array, what: string): void {
  const i = bytes.findIndex((b) => b > 1);
  if (i >= 0) throw new TypeError(`${what}[${i}]: ${bytes[i]} is not a valid bool value (bool bytes are 0 or 1)`);
}

function setValue(values: Values, i: number, v: Scalar): void {
  if (values instanceof Uint8Array) values[i] = v ? 1 : 0;
  else (values as unknown as Scalar[])[i] = v;
}

export function getValue(values: Values, i: number): Scalar {
  const v = values[i];
  return values instanceof Uint8Array ? v === 1 : (v as Scalar);
}

export function describe(x: unknown): string {
  if (x === null) return 'null';
  if (x === undefined) return 'undefined';
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? x.slice(0, 40) + '…' : x);
  if (typeof x === 'bigint') return `${x}n`;
  if (typeof x === 'number' || typeof x === 'boolean') return String(x);
  if (typeof x === 'function') return 'a function';
  if (Array.isArray(x)) return `an array of length ${x.length}`;
  // The prototype's constructor, not an own `constructor` key a JSON body could set.
  const name = Object.getPrototypeOf(x)?.constructor?.name;
  const kind = typeof name === 'string' && name !== 'Object' ? `a ${name}` : 'an object';
  const length = (x as { length?: unknown }).length;
  if (typeof length !== 'number') return kind;
  return ArrayBuffer.isView(x) ? `${kind} of length ${length}` : `${kind} claiming length ${length} (not an array)`;
}
