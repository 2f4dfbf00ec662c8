import { allocValues, type DType, type Values, type Scalar } from '@sparse/kernel-abi';
import { isAllocationFailure } from './allocation-failure.js';
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

/**
 * Names entry `i` of a run of values in an error: `[3]` in a flat list, `[1][0][3]` in a row of nested lists, nothing
 * for a scalar. Called only to format an error.
 */
export type Position = (i: number) => string;

/** The position of entry `i` of a flat list. */
export const flatPosition: Position = (i) => `[${i}]`;

type ValueKind = 'number' | 'boolean' | 'string';

/**
 * The dtype TensorFlow gives Python values (ints → int32, int64 past int32's range; floats → float32), read over one
 * or more runs of them: a flat list, or each innermost list of nested lists in turn, so that no flat copy of them is
 * needed. A value that is none (a hole, undefined, an object...) is refused as soon as it is read.
 */
export class DTypeScan {
  #kind: ValueKind | undefined;
  #sawFloat = false;
  #sawWideInt = false;

  /**
   * Reads `items`; errors name entry i as `what` + `position(i)`. `nested`: `items` is a row of nested lists, so an
   * array in it is reported as nesting that is not rectangular.
   */
  read(items: ArrayLike<unknown>, what: string, position: Position, nested = false): void {
    let kind = this.#kind;
    let sawFloat = this.#sawFloat;
    let sawWideInt = this.#sawWideInt;
    for (let i = 0; i < items.length; i++) {
      const x = items[i];
      const t = typeof x;
      if (t === 'number') {
        if (kind !== 'number') {
          if (kind !== undefined) throw mixedKinds(what, position(i), kind, t);
          kind = 'number';
        }
        const v = x as number;
        if (!Number.isInteger(v)) sawFloat = true;
        else if (v < INT32_MIN || v > INT32_MAX) sawWideInt = true;
        continue;
      }
      if (t !== 'bigint' && t !== 'boolean' && t !== 'string') {
        if (nested && Array.isArray(x))
          throw new TypeError(`${what}: the nesting is not rectangular at ${position(i)}`);
        throw new TypeError(`${what}${position(i)}: cannot make a tensor of ${describe(x)}`);
      }
      const k: ValueKind = t === 'bigint' ? 'number' : (t as ValueKind);
      if (kind !== undefined && kind !== k) throw mixedKinds(what, position(i), kind, t);
      kind = k;
      if (t === 'bigint') sawWideInt = true;
    }
    this.#kind = kind;
    this.#sawFloat = sawFloat;
    this.#sawWideInt = sawWideInt;
  }

  /** The dtype of every value read: float32 when there were none. */
  get dtype(): DType {
    if (this.#kind === 'boolean') return 'bool';
    if (this.#kind === 'string') return 'string';
    if (this.#kind === undefined || this.#sawFloat) return 'float32';
    return this.#sawWideInt ? 'int64' : 'int32';
  }
}

function mixedKinds(what: string, at: string, kind: ValueKind, t: string): TypeError {
  return new TypeError(`${what}${at}: mixed value kinds: ${kind} and ${t}`);
}

/** The dtype TensorFlow gives a flat list of Python values (see DTypeScan). */
export function inferDType(items: ArrayLike<unknown>, what: string): DType {
  const scan = new DTypeScan();
  scan.read(items, what, flatPosition);
  return scan.dtype;
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
  const out = newValues(dtype, items.length, what);
  writeValues(out, 0, items, dtype, what, flatPosition);
  return out;
}

/**
 * A new store of `n` values of the dtype, to be written by `writeValues`. A string store is not filled first (with
 * '' only to be overwritten). An engine that cannot allocate it is an InvalidArgumentError naming `what`, as the
 * runtime reports a kernel's allocation failure.
 */
export function newValues(dtype: DType, n: number, what: string): Values {
  try {
    return dtype === 'string' ? new Array<string>(n) : allocValues(dtype, n);
  } catch (e) {
    if (isAllocationFailure(e))
      throw new InvalidArgumentError(`${what}: ${n} values of ${dtype} do not fit in memory (${e.message})`);
    throw e;
  }
}

/**
 * Writes `items` into `out` from `offset`, each converted to the dtype's storage as `toScalar` converts it; errors
 * name entry i as `what` + `position(i)`. `nested`: `items` is a row of nested lists, so an array in it is reported
 * as nesting that is not rectangular.
 */
export function writeValues(
  out: Values,
  offset: number,
  items: ArrayLike<unknown>,
  dtype: DType,
  what: string,
  position: Position,
  nested = false,
): void {
  const n = items.length;
  const slow = (i: number): Scalar => {
    const x = items[i];
    if (nested && Array.isArray(x)) throw new TypeError(`${what}: the nesting is not rectangular at ${position(i)}`);
    return toScalar(x, dtype, `${what}${position(i)}`);
  };
  // One loop per storage, with the common case inline: this runs once per value of every plain input.
  switch (dtype) {
    case 'float32':
    case 'float64': {
      // A Float32Array rounds as Math.fround does, as toScalar would.
      const o = out as Float32Array | Float64Array;
      for (let i = 0; i < n; i++) {
        const x = items[i];
        o[offset + i] = typeof x === 'number' ? x : (slow(i) as number);
      }
      return;
    }
    case 'int32': {
      const o = out as Int32Array;
      for (let i = 0; i < n; i++) {
        const x = items[i];
        o[offset + i] = typeof x === 'number' && (x | 0) === x ? x : (slow(i) as number);
      }
      return;
    }
    case 'int64': {
      const o = out as BigInt64Array;
      for (let i = 0; i < n; i++) {
        const x = items[i];
        o[offset + i] =
          typeof x === 'bigint' && x >= INT64_MIN && x <= INT64_MAX
            ? x
            : typeof x === 'number' && Number.isSafeInteger(x)
              ? BigInt(x)
              : (slow(i) as bigint);
      }
      return;
    }
    case 'bool': {
      const o = out as Uint8Array;
      for (let i = 0; i < n; i++) {
        const x = items[i];
        o[offset + i] = (typeof x === 'boolean' ? x : (slow(i) as boolean)) ? 1 : 0;
      }
      return;
    }
    case 'string': {
      const o = out as string[];
      for (let i = 0; i < n; i++) {
        const x = items[i];
        o[offset + i] = typeof x === 'string' ? x : (slow(i) as string);
      }
      return;
    }
  }
}

function checkBoolBytes(bytes: Uint8Array, what: string): void {
  const i = bytes.findIndex((b) => b > 1);
  if (i >= 0) throw new TypeError(`${what}[${i}]: ${bytes[i]} is not a valid bool value (bool bytes are 0 or 1)`);
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
