import type { SparseData } from '@sparse/kernel-abi';
import { describe, getValue, type DType, type Values } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import { shapeText } from './shape.js';
import { formatNested, type Tensor } from './tensor.js';
import { defaultOps } from './default-ops.js';
import type { ScalarLike, TensorLike } from './arg-types.js';
import type { TypedArray } from './list-input.js';
import { isPlainObject } from './plain-object.js';
import { asList, checkDType, readSparseParts, readValues, type PartName } from './sparse-input.js';

/** The plain-data form of a SparseTensor (TensorFlow's SparseTensorValue), as JSON can hold it: int64 past 2^53 as digit strings. */
export interface SparseTensorValue {
  indices: number[][];
  values: (number | string | boolean)[];
  dense_shape: number[];
  dtype: DType;
}

const FROM_JSON_KEYS = ['indices', 'values', 'dense_shape', 'dtype'];

// JS has no private constructor: `adoptSparse` sets this for the one `new` it makes, which then takes the kernel
// output as it is instead of checking and copying what a caller gave.
let adopting = false;

/** Wraps kernel output (or parts of a SparseTensor) without copying or re-checking it; nothing else may hold it. */
export function adoptSparse(d: SparseData): SparseTensor {
  adopting = true;
  try {
    return new SparseTensor(d.indices, d.values, d.shape, d.dtype);
  } finally {
    adopting = false;
  }
}

/** The stored data of a SparseTensor, not copied: for the runtime to hand to kernels, which never write to it. */
export let sparseDataOf: (st: SparseTensor) => SparseData;

/**
 * A sparse tensor: `indices` (N index tuples), `values` (N values) and `denseShape`, as TensorFlow's SparseTensor.
 * Order is not checked here (ops that need canonical order check it); shapes and lengths are. It is immutable:
 * the constructor copies what it is given, `denseShape` is frozen, and `values` and `indexData` are copies, so what
 * was checked stays true.
 */
export class SparseTensor {
  readonly #indexData: Float64Array;
  readonly #values: Values;
  // Never given out: `denseShape` is a frozen copy, made when first asked for (V8 slices frozen arrays slowly).
  readonly #shape: readonly number[];
  #frozenShape: readonly number[] | undefined;
  readonly #dtype: DType;

  static {
    sparseDataOf = (st) => ({
      kind: 'sparse',
      indices: st.#indexData,
      values: st.#values,
      shape: st.#shape.slice(),
      dtype: st.#dtype,
    });
  }

  /**
   * Indices as N index tuples or flat and row-major (an array or a typed array), values as a list or typed array,
   * the dense shape as a list of dims (numbers, bigints or strings of digits); the dtype is inferred from the
   * values as TensorFlow converts Python values when not given. Everything is copied.
   */
  constructor(
    indices: readonly (readonly (number | bigint)[])[] | readonly (number | bigint)[] | TypedArray,
    values: readonly unknown[] | TypedArray,
    denseShape: readonly (number | bigint | string)[] | TypedArray,
    dtype?: DType,
  ) {
    const d = adopting
      ? { indices: indices as Float64Array, values: values as Values, shape: denseShape as number[], dtype: dtype! }
      : readSparseParts(indices, values, denseShape, dtype, (part) => `SparseTensor: ${part}`);
    adopting = false;
    this.#indexData = d.indices;
    this.#values = d.values;
    this.#shape = d.shape.slice();
    this.#dtype = d.dtype;
    Object.freeze(this);
  }

  /** Builds a SparseTensor from kernel plain data (flat indices), checked and copied as the constructor does. */
  static fromData(d: SparseData): SparseTensor {
    return new SparseTensor(d.indices, d.values, d.shape, d.dtype);
  }

  /** Builds a SparseTensor from its plain-data form (`toJSON()`'s output, or a SparseTensorValue). */
  static fromJSON(v: {
    indices: readonly unknown[] | TypedArray;
    values: readonly unknown[] | TypedArray;
    dense_shape: readonly (number | bigint | string)[] | TypedArray;
    dtype?: DType;
  }): SparseTensor {
    return sparseFromPlain(v, 'SparseTensor.fromJSON', (part) => `SparseTensor.fromJSON: ${part}`);
  }

  /** The indices, flat and row-major: entry i, dim d is `indexData[i * rank + d]`. A copy. */
  get indexData(): Float64Array {
    return this.#indexData.slice();
  }

  /** The values, in the dtype's storage (a typed array; an array of strings for string). A copy: read it once. */
  get values(): Values {
    return this.#values.slice() as Values;
  }

  /** The dense shape, frozen. */
  get denseShape(): readonly number[] {
    this.#frozenShape ??= Object.freeze(this.#shape.slice());
    return this.#frozenShape;
  }

  get dtype(): DType {
    return this.#dtype;
  }

  get rank(): number {
    return this.#shape.length;
  }

  get nnz(): number {
    return this.#values.length;
  }

  /** The dense shape (TensorFlow's `shape`), as a new array. */
  get shape(): number[] {
    return this.#shape.slice();
  }

  /** The indices as N index tuples. */
  get indices(): number[][] {
    const { rank, nnz } = this;
    const data = this.#indexData;
    const out = new Array<number[]>(nnz);
    for (let i = 0; i < nnz; i++) out[i] = Array.from(data.subarray(i * rank, (i + 1) * rank));
    return out;
  }

  /** A SparseTensor with the same indices and shape and new values (of any dtype, as TensorFlow's `with_values`). */
  withValues(newValues: readonly unknown[] | TypedArray, dtype?: DType): SparseTensor {
    checkDType(dtype, 'withValues: dtype');
    const list = asList(newValues, 'withValues: new_values');
    if (list.length !== this.nnz) {
      throw new InvalidArgumentError(`withValues: new_values has ${list.length} entries, the tensor has ${this.nnz}`);
    }
    const read = readValues(list, dtype, 'withValues: new_values');
    // Indices and shape are shared: neither tensor lets them change.
    return adoptSparse({ kind: 'sparse', indices: this.#indexData, shape: this.shape, ...read });
  }

  /** The dense tensor this stands for (sparse.toDense on the default runtime). */
  toDense(defaultValue?: ScalarLike): Tensor {
    return defaultOps().tensorToDense(this, { defaultValue });
  }

  /** Multiplies by a dense tensor broadcast to this shape; implicit zeros stay absent (TensorFlow's `__mul__`). */
  mul(dense: TensorLike): SparseTensor {
    return defaultOps().denseCwiseMul(this, dense);
  }

  /** Divides by a dense tensor broadcast to this shape (TensorFlow's `__div__`). */
  div(dense: TensorLike): SparseTensor {
    return defaultOps().denseCwiseDiv(this, dense);
  }

  /** The plain data kernels take, as copies. */
  toData(): SparseData {
    return { kind: 'sparse', indices: this.indexData, values: this.values, shape: this.shape, dtype: this.#dtype };
  }

  toJSON(): SparseTensorValue {
    const values = new Array<number | string | boolean>(this.nnz);
    for (let i = 0; i < this.nnz; i++) {
      const v = getValue(this.#values, i);
      values[i] = typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()) : v;
    }
    return { indices: this.indices, values, dense_shape: this.shape, dtype: this.#dtype };
  }

  toString(): string {
    const vals = Array.from({ length: Math.min(this.nnz, 20) }, (_, i) => getValue(this.#values, i));
    const more = this.nnz > 20 ? [`… ${this.nnz - 20} more`] : [];
    return (
      `SparseTensor(indices=${formatNested(this.indices.slice(0, 20))}${this.nnz > 20 ? '…' : ''}, ` +
      `values=${formatNested([...vals, ...more])}, dense_shape=${shapeText(this.#shape)}, dtype=${this.#dtype})`
    );
  }
}

/**
 * A SparseTensor from its plain-data form `{indices, values, dense_shape, dtype?}`, as a request body gives it;
 * errors name it (`what`) and its parts (`name`), and a key it does not know is refused rather than ignored.
 */
export function sparseFromPlain(v: unknown, what: string, name: PartName): SparseTensor {
  if (!isPlainObject(v)) throw new TypeError(`${what} must be {indices, values, dense_shape}, got ${describe(v)}`);
  const unknown = Object.keys(v).find((k) => !FROM_JSON_KEYS.includes(k));
  if (unknown !== undefined) {
    throw new TypeError(`${what}: unknown field '${unknown}' (the fields are ${FROM_JSON_KEYS.join(', ')})`);
  }
  const { indices, values, dense_shape, dtype } = v as Record<string, unknown>;
  return adoptSparse(readSparseParts(indices, values, dense_shape, dtype, name));
}
