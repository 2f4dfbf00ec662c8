import { toWideSparse, type SparseData, type WideSparseData } from '@sparse/kernel-abi';
import { describe, getValue, type DType, type Values } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import { shapeText } from './shape.js';
import { Tensor, denseDataOf } from './tensor.js';
import type { CsrMatrix } from './csr-matrix.js';
import { formatList, formatScalar, INSPECT, SHOWN_WHOLE } from './print.js';
import { defaultOps, jsSideOps } from './default-ops.js';
import type { ScalarLike, TensorLike } from './arg-types.js';
import type { TypedArray } from './list-input.js';
import { isPlainObject } from './plain-object.js';
import { layoutHint } from './foreign-input.js';
import { asList, checkDType, readSparseParts, readValues, type PartName } from './sparse-input.js';
import { adoptStorage, disposeStorage } from './tensor-storage.js';
import { isDeviceValues, markImmutable } from '@sparse/kernel-abi';
import { gpuBufferOf } from './gpu-buffer.js';

/**
 * The plain-data form of a SparseTensor (TensorFlow's SparseTensorValue), as JSON can hold it: int64 values, dims and
 * indices past 2^53 - 1 as strings of digits.
 */
export interface SparseTensorValue {
  indices: (number | string)[][];
  values: (number | string | boolean)[];
  dense_shape: (number | string)[];
  dtype: DType;
}

const FROM_JSON_KEYS = ['indices', 'values', 'dense_shape', 'denseShape', 'dtype'];

// What a disposed tensor holds in place of its arrays.
const DISPOSED_INDICES = new Float64Array(0);
const DISPOSED_VALUES = new Float64Array(0);

// JS has no private constructor: `adoptSparse` sets this for the one `new` it makes, which then takes the kernel
// output as it is instead of checking and copying what a caller gave.
let adopting: SparseData | WideSparseData | undefined;

/** Wraps kernel output (or parts of a SparseTensor) without copying or re-checking it; nothing else may hold it. */
export function adoptSparse(d: SparseData | WideSparseData): SparseTensor {
  adopting = d;
  try {
    return new SparseTensor([], [], []);
  } finally {
    adopting = undefined;
  }
}

/**
 * The stored data of a SparseTensor, not copied: for the runtime to hand to kernels, which never write to it. A
 * tensor with a dim past 2^53 - 1 gives its exact (wide) form.
 */
export let sparseDataOf: (st: SparseTensor) => SparseData | WideSparseData;

/**
 * A sparse tensor: `indices` (N index tuples), `values` (N values) and `denseShape`, as TensorFlow's SparseTensor.
 * Order is not checked here (ops that need canonical order check it); shapes and lengths are. It is immutable:
 * the constructor copies what it is given, `denseShape` is frozen, and `values` and `indexData` are copies, so what
 * was checked stays true.
 *
 * Dims and indices are int64, as TensorFlow's: up to 2^63 - 1. While every dim is at most 2^53 - 1 they are JS
 * numbers (`denseShape`, `indices`, `indexData`); a tensor with a larger dim holds them as BigInt, read through
 * `exactShape` and `exactIndexData` (which every tensor has), and its number accessors refuse rather than round.
 */
export class SparseTensor {
  #data: SparseData | WideSparseData;
  // Its large buffers (tensor-storage.ts); undefined once disposed.
  #buffers: ArrayBufferLike[] | undefined;
  readonly #nnz: number;
  #marked = false;
  // Never given out: `denseShape` is a frozen copy, made when first asked for (V8 slices frozen arrays slowly).
  #frozenShape: readonly number[] | undefined;

  static {
    sparseDataOf = (st) => {
      const d = st.#buffers ? st.#data : st.#live('data');
      // Marked immutable when first handed to a kernel (most results never are: no cost for them).
      if (!st.#marked) {
        markImmutable(d.indices, d.values as object);
        st.#marked = true;
      }
      return d.kind === 'sparse' ? { ...d, shape: d.shape.slice() } : d;
    };
  }

  /**
   * Indices as N index tuples or flat and row-major (an array or a typed array), values as a list or typed array,
   * the dense shape as a list of dims (numbers, bigints or strings of digits); the dtype is inferred from the
   * values as TensorFlow converts Python values when not given. Everything is copied.
   */
  constructor(
    indices: readonly (readonly (number | bigint | string)[])[] | readonly (number | bigint | string)[] | TypedArray,
    values: readonly unknown[] | TypedArray,
    denseShape: readonly (number | bigint | string)[] | TypedArray,
    dtype?: DType,
  ) {
    this.#data = adopting ?? readSparseParts(indices, values, denseShape, dtype, (part) => `SparseTensor: ${part}`);
    adopting = undefined;
    this.#nnz = this.#data.values.length;
    this.#buffers = adoptStorage(this.#data.indices, this.#data.values);
    Object.freeze(this);
  }

  /**
   * A SparseTensor from one array of indices per dim: scipy's COO `(row, col)` (`fromCoordinates([row, col], data,
   * shape)`) and PyTorch's `[rank, nnz]` indices (`fromCoordinates(indices, values, size)`). `coordinates[d][e]` is
   * entry e's index along dim d; numbers, bigints or typed arrays of them (int64 ones included). Checked and copied
   * as the constructor checks and copies.
   */
  static fromCoordinates(
    coordinates: readonly (readonly (number | bigint)[] | TypedArray)[],
    values: readonly unknown[] | TypedArray,
    denseShape: readonly (number | bigint | string)[] | TypedArray,
    dtype?: DType,
  ): SparseTensor {
    const what = 'SparseTensor.fromCoordinates';
    if (!Array.isArray(coordinates) || coordinates.some((c) => !Array.isArray(c) && !ArrayBuffer.isView(c)))
      throw new TypeError(
        `${what}: coordinates must be one array of indices per dim ([row, col]; PyTorch's [rank, nnz]), got ${describe(coordinates)}`,
      );
    const rank = coordinates.length;
    const dims = asList(denseShape, `${what}: dense_shape`);
    if (rank !== dims.length)
      throw new InvalidArgumentError(
        `${what}: coordinates has ${rank} arrays of indices for a dense shape of rank ${dims.length}: one per dim`,
      );
    const nnz = rank ? (coordinates[0] as ArrayLike<unknown>).length : 0;
    const short = coordinates.findIndex((c) => (c as ArrayLike<unknown>).length !== nnz);
    if (short >= 0)
      throw new InvalidArgumentError(
        `${what}: coordinates[${short}] has ${(coordinates[short] as ArrayLike<unknown>).length} indices, coordinates[0] has ${nnz}`,
      );
    const wide = coordinates.some(
      (c) => c instanceof BigInt64Array || (c as unknown[]).some?.((x) => typeof x === 'bigint'),
    );
    const flat = wide ? new Array<unknown>(nnz * rank) : new Float64Array(nnz * rank);
    for (let d = 0; d < rank; d++) {
      const c = coordinates[d] as ArrayLike<unknown>;
      for (let e = 0; e < nnz; e++) (flat as unknown[])[e * rank + d] = c[e];
    }
    return new SparseTensor(flat as never, values, denseShape, dtype);
  }

  /** Builds a SparseTensor from kernel plain data (flat indices), checked and copied as the constructor does. */
  static fromData(d: SparseData | WideSparseData): SparseTensor {
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
    return this.#narrow('indexData', 'exactIndexData').indices.slice();
  }

  /** The indices, flat and row-major, exactly as int64 (for any dense shape). A copy. */
  get exactIndexData(): BigInt64Array {
    return toWideSparse(this.#live('exactIndexData')).indices.slice();
  }

  /**
   * The values, in the dtype's storage (a typed array; an array of strings for string). A copy: read it once. Values
   * held on a device (an op's result on the webgpu backend) are not in host memory until read: `await st.data()`.
   */
  get values(): Values {
    return this.#host('values').values.slice() as Values;
  }

  /**
   * The values, read back where they live on a device (the webgpu backend): as TensorFlow.js's `await t.data()`, on
   * every backend. A copy.
   */
  async data(): Promise<Values> {
    const d = this.#live('data');
    if (isDeviceValues(d.values)) {
      const values = await d.values.read();
      if (this.#data === d) this.#data = { ...d, values } as SparseData | WideSparseData;
    }
    return this.#host('data').values.slice() as Values;
  }

  /** Its plain-data form (`toJSON()`), read back where its values live on a device: as TensorFlow.js's `await t.array()`. */
  async array(): Promise<SparseTensorValue> {
    await this.data();
    return this.toJSON();
  }

  /** Whether its values live on a device (an op's result on the webgpu backend), not yet read into host memory. */
  get isOnDevice(): boolean {
    return isDeviceValues(this.#data.values);
  }

  /**
   * The GPU buffer that holds its values, where they live on a GPU device (a webgpu result), with the work recorded on
   * it submitted: for another user of the device (TF.js's `tf.tensor({ buffer }, [nnz])`), as Tensor.dataToGPU.
   */
  dataToGPU(): { buffer: unknown } {
    return gpuBufferOf(this.#live('dataToGPU').values, 'SparseTensor.dataToGPU');
  }

  /** The dense shape, frozen. */
  get denseShape(): readonly number[] {
    this.#frozenShape ??= Object.freeze(this.#narrow('denseShape', 'exactShape', false).shape.slice());
    return this.#frozenShape;
  }

  /** The dense shape exactly, as int64 dims (for any dense shape). A new array. */
  get exactShape(): bigint[] {
    return this.#data.shape.map(BigInt);
  }

  get dtype(): DType {
    return this.#data.dtype;
  }

  get rank(): number {
    return this.#data.shape.length;
  }

  get nnz(): number {
    return this.#nnz;
  }

  /** The dense shape (TensorFlow's `shape`), as a new array. */
  get shape(): number[] {
    return this.#narrow('shape', 'exactShape', false).shape.slice();
  }

  /** The indices as N index tuples. */
  get indices(): number[][] {
    const { rank, nnz } = this;
    const data = this.#narrow('indices', 'exactIndexData').indices;
    const out = new Array<number[]>(nnz);
    for (let i = 0; i < nnz; i++) out[i] = Array.from(data.subarray(i * rank, (i + 1) * rank));
    return out;
  }

  // The first `n` index rows, each entry as `entry` writes it.
  #rows<T>(entry: (x: number | bigint) => T, n = this.nnz): T[][] {
    const { rank } = this;
    const indices: ArrayLike<number | bigint> = this.#data.indices;
    const out = new Array<T[]>(n);
    for (let i = 0; i < n; i++) {
      const row = new Array<T>(rank);
      for (let d = 0; d < rank; d++) row[d] = entry(indices[i * rank + d]);
      out[i] = row;
    }
    return out;
  }

  // The number form of the data; a wide tensor refuses to give it (`exact` names the accessor that holds it).
  #narrow(accessor: string, exact: string, data = true): SparseData {
    const d = data ? this.#live(accessor) : this.#data;
    if (d.kind === 'sparse') return d;
    throw new InvalidArgumentError(
      `SparseTensor.${accessor}: dense shape ${shapeText(this.#data.shape)} has a dim past 2^53 - 1, which a JS number cannot hold exactly; read ${exact}`,
    );
  }

  /**
   * Gives back the memory of this tensor: what any backend holds prepared for it (the wasm backend keeps a tensor's
   * indices and values in its memory between calls), and its own arrays, which the next results of their size may
   * reuse. The tensor is then done with: its dense shape, dtype, rank and nnz still read, but its data does not, and
   * an op given it throws an InvalidArgumentError (as TensorFlow.js refuses a disposed tensor). A tensor that
   * shares arrays with another (`withValues`) gives those back only when both are disposed or collected. Calling it
   * again does nothing. A tensor never disposed is freed by the garbage collector, as any object.
   */
  dispose(): void {
    const buffers = this.#buffers;
    if (!buffers) return;
    this.#buffers = undefined;
    const d = this.#data;
    if (isDeviceValues(d.values)) d.values.release();
    disposeStorage(isDeviceValues(d.values) ? [d.indices] : [d.indices, d.values], buffers);
    // The arrays go: nothing may read them now that they can be reused. The shape and dtype stay readable.
    this.#data = { ...d, indices: DISPOSED_INDICES, values: DISPOSED_VALUES } as SparseData;
  }

  /** Whether `dispose()` was called. */
  get isDisposed(): boolean {
    return !this.#buffers;
  }

  // The data, unless the tensor was disposed.
  #live(what: string): SparseData | WideSparseData {
    if (!this.#buffers) {
      throw new InvalidArgumentError(
        `SparseTensor.${what}: the tensor was disposed (dispose() gave its memory back), so it holds no data`,
      );
    }
    return this.#data;
  }

  // The data in host memory: a tensor whose values live on a device must be read first.
  #host(what: string): SparseData | WideSparseData {
    const d = this.#live(what);
    if (isDeviceValues(d.values))
      throw new InvalidArgumentError(
        `SparseTensor.${what}: its values live on the ${d.values.backend} device (an op's result there): read them with await st.data() or await st.array() first`,
      );
    return d;
  }

  /**
   * A SparseTensor with the same indices and shape and new values (of any dtype, as TensorFlow's `with_values`): a
   * list, a typed array, or a rank-1 Tensor of `nnz` values, whose dtype it keeps. A Tensor's values that live on a
   * GPU device (a webgpu result, an `rt.fromGPUBuffer` tensor) stay there, shared: disposing either tensor gives them
   * back.
   */
  withValues(newValues: readonly unknown[] | TypedArray | Tensor, dtype?: DType): SparseTensor {
    checkDType(dtype, 'withValues: dtype');
    const data = this.#live('withValues');
    if (newValues instanceof Tensor) {
      if (newValues.shape.length !== 1 || newValues.shape[0] !== this.nnz)
        throw new InvalidArgumentError(
          `withValues: new_values has shape ${shapeText(newValues.shape)}, the tensor has ${this.nnz} entries`,
        );
      const held = denseDataOf(newValues).data;
      const values = isDeviceValues(held) ? held : (held.slice() as Values);
      return adoptSparse({ ...data, values, dtype: newValues.dtype } as SparseData | WideSparseData);
    }
    const list = asList(newValues, 'withValues: new_values');
    if (list.length !== this.nnz) {
      throw new InvalidArgumentError(`withValues: new_values has ${list.length} entries, the tensor has ${this.nnz}`);
    }
    const read = readValues(list, dtype, 'withValues: new_values');
    // Indices and shape are shared: neither tensor lets them change.
    return adoptSparse({ ...data, ...read } as SparseData | WideSparseData);
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

  /** Its dims permuted, reversed by default (sparse.transpose on the default runtime). */
  transpose(perm?: readonly number[]): SparseTensor {
    return defaultOps().transpose(this, { perm: perm === undefined ? undefined : [...perm] });
  }

  /** Its entries in canonical row-major order (sparse.reorder on the default runtime). */
  reorder(): SparseTensor {
    return defaultOps().reorder(this);
  }

  /** The sum over `axis` (every dim by default), a dense Tensor (sparse.reduceSum on the default runtime). */
  sum(axis?: number | readonly number[], keepdims?: boolean): Tensor {
    const axes = axis === undefined ? undefined : typeof axis === 'number' ? [axis] : [...axis];
    return defaultOps().reduceSum(this, { axis: axes, keepdims }) as Tensor;
  }

  /** This matrix times a dense one (sparse.tensorDenseMatmul on the default runtime). */
  matmul(dense: TensorLike, options?: { adjointA?: boolean; adjointB?: boolean }): Tensor {
    return defaultOps().tensorDenseMatmul(this, dense, options);
  }

  /** Its values in another dtype, as TensorFlow's `tf.cast` of a SparseTensor (sparse.cast). */
  cast(dtype: DType): SparseTensor {
    return jsSideOps().cast(this, dtype);
  }

  /** Repeated indices summed, in canonical order (PyTorch's `coalesce()`, scipy's `sum_duplicates()`: sparse.coalesce). */
  coalesce(): SparseTensor {
    return jsSideOps().coalesce(this);
  }

  /** As a CsrMatrix (rank 2, or 3 for a batch; CsrMatrix.fromSparseTensor). */
  toCsr(): CsrMatrix {
    return defaultOps().tensorToCsrSparseMatrix(this);
  }

  /** The plain data kernels take, as copies (the exact form for a dense shape with a dim past 2^53 - 1). */
  toData(): SparseData | WideSparseData {
    const d = this.#host('toData');
    return { ...d, indices: d.indices.slice(), values: d.values.slice(), shape: d.shape.slice() } as
      SparseData | WideSparseData;
  }

  toJSON(): SparseTensorValue {
    this.#host('toJSON');
    const { nnz } = this;
    const values = new Array<number | string | boolean>(nnz);
    for (let i = 0; i < nnz; i++) {
      const v = getValue(this.#data.values, i);
      values[i] = typeof v === 'bigint' ? jsonInt(v) : v;
    }
    const rows = this.#rows(jsonInt);
    return {
      indices: rows,
      values,
      dense_shape: (this.#data.shape as (number | bigint)[]).map(jsonInt),
      dtype: this.#data.dtype,
    };
  }

  toString(): string {
    if (!this.#buffers)
      return `SparseTensor(disposed, dense_shape=${shapeText(this.#data.shape)}, dtype=${this.#data.dtype})`;
    const { nnz } = this;
    const { shape, values } = this.#data;
    if (isDeviceValues(values))
      return `SparseTensor(values on the ${values.backend} device, nnz=${nnz}, dense_shape=${shapeText(shape)}, dtype=${this.#data.dtype})`;
    const { rank } = this;
    const indices: ArrayLike<number | bigint> = this.#data.indices;
    const row = (e: number) => formatList(rank, (d) => String(indices[e * rank + d]));
    const count = nnz > SHOWN_WHOLE ? `, nnz=${nnz}` : '';
    return (
      `SparseTensor(indices=${formatList(nnz, row)}, values=${formatList(nnz, (e) => formatScalar(getValue(values, e)))}, ` +
      `dense_shape=${shapeText(shape)}, dtype=${this.#data.dtype}${count})`
    );
  }

  /** What console.log shows in Node: toString(), more than 20 entries summarized by their first and last 3. */
  [INSPECT](): string {
    return this.toString();
  }

  /** Prints toString() with console.log, as TensorFlow.js's `t.print()`. */
  print(): void {
    console.log(this.toString());
  }
}

// An int64 for JSON: a number while exact, else a string of digits (the case format's spelling).
function jsonInt(v: number | bigint): number | string {
  return typeof v === 'number' || Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
}

/**
 * A SparseTensor from its plain-data form `{indices, values, dense_shape, dtype?}`, as a request body gives it;
 * errors name it (`what`) and its parts (`name`), and a key it does not know is refused rather than ignored.
 */
export function sparseFromPlain(v: unknown, what: string, name: PartName): SparseTensor {
  if (!isPlainObject(v)) throw new TypeError(`${what} must be {indices, values, dense_shape}, got ${describe(v)}`);
  const unknown = Object.keys(v).find((k) => !FROM_JSON_KEYS.includes(k));
  if (unknown !== undefined) {
    const hint = layoutHint(v);
    throw new TypeError(
      hint
        ? `${what}: ${hint}`
        : `${what}: unknown field '${unknown}' (the fields are indices, values, dense_shape or denseShape, dtype)`,
    );
  }
  const { indices, values, dtype } = v as Record<string, unknown>;
  // dense_shape as TensorFlow's SparseTensorValue spells it, or denseShape as a SparseTensor's accessor does.
  if ('dense_shape' in v && 'denseShape' in v) throw new TypeError(`${what}: give dense_shape or denseShape, not both`);
  const shape = (v as Record<string, unknown>).dense_shape ?? (v as Record<string, unknown>).denseShape;
  return adoptSparse(readSparseParts(indices, values, shape, dtype, name));
}
