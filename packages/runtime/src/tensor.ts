import type { DenseData } from '@sparse/kernel-abi';
import { dtypeOfStorage, describe, getValue, inferDType, isDType, toValues, type DType, type Values } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import { sizeOf } from '@sparse/kernel-abi';
import { assertAllocatable, shapeText, toShape } from './shape.js';

/** A dense tensor: row-major `data` of `dtype`, with `shape`. */
export class Tensor {
  readonly data: Values;
  readonly shape: number[];
  readonly dtype: DType;

  constructor(data: Values, shape: readonly number[], dtype: DType) {
    if (!isDType(dtype)) throw new TypeError(`Tensor: unknown dtype ${describe(dtype)}`);
    const storage = dtypeOfStorage(data);
    if (dtype === 'string' ? !Array.isArray(data) : storage !== dtype) {
      throw new TypeError(`Tensor: ${describe(data)} is not the storage of ${dtype}`);
    }
    this.shape = toShape(shape, 'Tensor: shape');
    if (sizeOf(this.shape) !== data.length) {
      throw new InvalidArgumentError(
        `Tensor: shape ${shapeText(this.shape)} needs ${sizeOf(this.shape)} values, got ${data.length}`,
      );
    }
    this.data = data;
    this.dtype = dtype;
  }

  get rank(): number {
    return this.shape.length;
  }

  get size(): number {
    return this.data.length;
  }

  /** The nested arrays of the values (int64 as bigint, bool as boolean); a scalar for rank 0. */
  toArray(): unknown {
    const { data, shape } = this;
    let pos = 0;
    const build = (d: number): unknown => {
      if (d === shape.length) return getValue(data, pos++);
      const out = new Array<unknown>(shape[d]);
      for (let i = 0; i < shape[d]; i++) out[i] = build(d + 1);
      return out;
    };
    return build(0);
  }

  toString(): string {
    return `Tensor(${formatNested(this.toArray())}, shape=${shapeText(this.shape)}, dtype=${this.dtype})`;
  }

  /** The plain data a kernel takes. */
  toData(): DenseData {
    return { kind: 'dense', data: this.data, shape: this.shape.slice(), dtype: this.dtype };
  }
}

/**
 * Makes a dense tensor from a scalar, nested arrays or a flat typed array, as TensorFlow converts a Python value:
 * without a dtype, ints become int32 (int64 past its range), floats float32, booleans bool, strings string.
 * `shape` is needed where nesting cannot show it (a zero-sized dim, or flat data).
 */
export function tensor(value: unknown, dtype?: DType, shape?: readonly number[]): Tensor {
  if (value instanceof Tensor) {
    if (dtype !== undefined && dtype !== value.dtype)
      throw new TypeError(`tensor: a ${value.dtype} Tensor is not ${dtype}`);
    return value;
  }
  const storage = dtypeOfStorage(value);
  let flat: ArrayLike<unknown>;
  let nestedShape: number[];
  if (storage !== undefined) {
    flat = value as ArrayLike<unknown>;
    nestedShape = [flat.length];
  } else {
    [flat, nestedShape] = flatten(value);
  }
  const finalShape = shape === undefined ? nestedShape : toShape(shape, 'tensor: shape');
  if (sizeOf(finalShape) !== flat.length) {
    throw new InvalidArgumentError(
      `tensor: shape ${shapeText(finalShape)} needs ${sizeOf(finalShape)} values, got ${flat.length}`,
    );
  }
  assertAllocatable(finalShape, 'tensor');
  const dt = dtype ?? storage ?? inferDType(Array.from(flat));
  if (!isDType(dt)) throw new TypeError(`tensor: unknown dtype ${describe(dt)}`);
  return new Tensor(toValues(flat, dt, 'tensor'), finalShape, dt);
}

/** Flattens rectangular nested arrays; the shape follows the nesting. */
function flatten(value: unknown): [unknown[], number[]] {
  const shape: number[] = [];
  for (let v = value; Array.isArray(v); v = v[0]) {
    shape.push(v.length);
    if (v.length === 0) break;
  }
  const flat: unknown[] = [];
  const walk = (v: unknown, d: number, path: string) => {
    if (d === shape.length) {
      if (Array.isArray(v)) throw new TypeError(`tensor: the nesting is not rectangular at ${path || 'the top'}`);
      flat.push(v);
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[d]) {
      throw new TypeError(
        `tensor: the nesting is not rectangular at ${path || 'the top'}: expected ${shape[d]} entries`,
      );
    }
    for (let i = 0; i < v.length; i++) walk(v[i], d + 1, `${path}[${i}]`);
  };
  walk(value, 0, '');
  return [flat, shape];
}

export function formatNested(v: unknown, limit = 20): string {
  const fmt = (x: unknown): string => {
    if (Array.isArray(x)) {
      const items = x.slice(0, limit).map(fmt);
      if (x.length > limit) items.push(`… ${x.length - limit} more`);
      return `[${items.join(', ')}]`;
    }
    return typeof x === 'string' ? JSON.stringify(x) : String(x);
  };
  return fmt(v);
}
