import { isDeviceValues, markImmutable, type DenseData, type DeviceValues } from '@sparse/kernel-abi';
import { dtypeOfStorage, describe, getValue, isDType, toValues, type DType, type Values } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import { sizeOf } from '@sparse/kernel-abi';
import { inferNestedDType, nestedShape, nestedValues } from './nested-input.js';
import { assertAllocatable, shapeText, toShape } from './shape.js';
import { adoptStorage, disposeStorage } from './tensor-storage.js';
import { trustedList } from './list-input.js';
import { formatDense, INSPECT } from './print.js';
import { gpuBufferOf } from './gpu-buffer.js';

// What a disposed tensor holds in place of its data.
const DISPOSED = new Float64Array(0);

// JS has no private constructor: `adoptDense` sets these for the one `new` it makes, which then keeps the data it
// is given instead of copying it (and owns it alone when `adoptingOwned`).
let adopting = false;
let adoptingOwned = false;

/**
 * Wraps kernel output (or fresh storage) without copying it; its storage kind and size are still checked. `owned`:
 * the storage was made for this tensor alone (never a caller's array that a kernel passed through), so it never
 * changes and a backend may keep a prepared copy of it.
 */
export function adoptDense(d: DenseData, owned = false): Tensor {
  adopting = true;
  adoptingOwned = owned;
  try {
    return new Tensor(d.data, d.shape, d.dtype);
  } finally {
    adopting = adoptingOwned = false;
  }
}

/** The stored data of a Tensor, not copied: for the runtime to hand to kernels, which never write to it. */
export let denseDataOf: (t: Tensor) => DenseData;

/**
 * A dense tensor: row-major `data` of `dtype`, with `shape`. It is immutable: the constructor copies the data, `shape`
 * is frozen and `data` is a copy, so what was checked stays true.
 */
export class Tensor {
  // Host memory, or values that live on a device until read (an op's result on the webgpu backend).
  #data: Values | DeviceValues;
  // Its large buffers (tensor-storage.ts); undefined once disposed.
  #buffers: ArrayBufferLike[] | undefined;
  readonly #size: number;
  // Never given out: `shape` is a frozen copy, made when first asked for (V8 slices frozen arrays slowly).
  readonly #shape: readonly number[];
  #frozenShape: readonly number[] | undefined;
  readonly #dtype: DType;
  // Whether its data is its own (copied or made for it), and whether that was marked immutable yet.
  readonly #owned: boolean;
  #marked = false;

  static {
    denseDataOf = (t) => {
      const data = t.#live('data');
      // Its own data never changes: marked immutable when first handed to a kernel, so that a backend may keep a
      // prepared copy (an embedding table used call after call).
      if (t.#owned && !t.#marked) {
        markImmutable(data as object);
        t.#marked = true;
      }
      // Values on a device reach only that device's kernels (the runtime sees to it): typed as host values here.
      return { kind: 'dense', data: data as Values, shape: t.#shape.slice(), dtype: t.#dtype };
    };
  }

  /** `data` in the dtype's storage (a Float32Array for float32, an array of strings for string...), copied. */
  constructor(data: Values, shape: readonly number[], dtype: DType) {
    const copy = !adopting;
    if (copy) data = trustedList(data);
    this.#owned = copy || adoptingOwned;
    adopting = adoptingOwned = false;
    if (!isDType(dtype)) throw new TypeError(`Tensor: unknown dtype ${describe(dtype)}`);
    const storage = dtypeOfStorage(data);
    const onDevice = !copy && isDeviceValues(data) && data.dtype === dtype;
    if (!onDevice && (dtype === 'string' ? !Array.isArray(data) : storage !== dtype)) {
      throw new TypeError(`Tensor: ${describe(data)} is not the storage of ${dtype}`);
    }
    const checkedShape = toShape(shape, 'Tensor: shape');
    if (sizeOf(checkedShape) !== data.length) {
      throw new InvalidArgumentError(
        `Tensor: shape ${shapeText(checkedShape)} needs ${sizeOf(checkedShape)} values, got ${data.length}`,
      );
    }
    const checked = copy ? toValues(data, dtype, 'Tensor: data') : data;
    this.#data = checked === data && copy ? (data.slice() as Values) : checked;
    this.#shape = checkedShape;
    this.#dtype = dtype;
    this.#size = this.#data.length;
    this.#buffers = onDevice ? [] : adoptStorage(this.#data as Values);
    Object.freeze(this);
  }

  /**
   * The values, row-major, in the dtype's storage, read back where they live on a device (the webgpu backend):
   * as TensorFlow.js's `await t.data()`, on every backend. A copy.
   */
  async data(): Promise<Values> {
    const data = this.#live('data');
    if (isDeviceValues(data)) {
      const read = await data.read();
      if (this.#data === data) this.#data = read;
    }
    return this.#host('data').slice() as Values;
  }

  /**
   * The values, row-major, in the dtype's storage, at once. A copy. Values held on a device (an op's result on the
   * webgpu backend) are not in host memory until read: `await t.data()`.
   */
  dataSync(): Values {
    return this.#host('dataSync').slice() as Values;
  }

  /**
   * The GPU buffer that holds its values, where they live on a GPU device (a webgpu result, or a tensor made by
   * `rt.fromGPUBuffer`), with the work recorded on it submitted: for another user of the same device, as TF.js's
   * `t.dataToGPU()` gives one (`tf.tensor({ buffer }, shape, dtype)` takes it). Row-major, 4 bytes a value from
   * offset 0; the buffer may be larger. It is the tensor's own: valid until the tensor is disposed, read or collected.
   */
  dataToGPU(): { buffer: unknown } {
    return gpuBufferOf(this.#live('dataToGPU'), 'Tensor.dataToGPU');
  }

  /** The nested arrays of the values, read back where they live on a device: as TensorFlow.js's `await t.array()`. */
  async array(): Promise<unknown> {
    await this.data();
    return this.toArray();
  }

  /**
   * Gives back the memory of this tensor, which the next results of its size may reuse; its shape, dtype, rank and
   * size still read, but its data does not, and an op given it throws an InvalidArgumentError (as TensorFlow.js
   * refuses a disposed tensor). Calling it again does nothing. A tensor never disposed is freed by the garbage
   * collector, as any object.
   */
  dispose(): void {
    const buffers = this.#buffers;
    if (!buffers) return;
    this.#buffers = undefined;
    if (isDeviceValues(this.#data)) this.#data.release();
    else disposeStorage([this.#data], buffers);
    this.#data = DISPOSED;
  }

  /** Whether `dispose()` was called. */
  get isDisposed(): boolean {
    return !this.#buffers;
  }

  // The data, unless the tensor was disposed.
  #live(what: string): Values | DeviceValues {
    if (!this.#buffers) {
      throw new InvalidArgumentError(
        `Tensor.${what}: the tensor was disposed (dispose() gave its memory back), so it holds no data`,
      );
    }
    return this.#data;
  }

  // The data in host memory: a tensor whose values live on a device must be read first.
  #host(what: string): Values {
    const data = this.#live(what);
    if (isDeviceValues(data))
      throw new InvalidArgumentError(
        `Tensor.${what}: its values live on the ${data.backend} device (an op's result there): read them with await t.data() or await t.array() first`,
      );
    return data;
  }

  /** Whether its values live on a device (an op's result on the webgpu backend), not yet read into host memory. */
  get isOnDevice(): boolean {
    return isDeviceValues(this.#data);
  }

  /** The shape, frozen. */
  get shape(): readonly number[] {
    this.#frozenShape ??= Object.freeze(this.#shape.slice());
    return this.#frozenShape;
  }

  get dtype(): DType {
    return this.#dtype;
  }

  get rank(): number {
    return this.#shape.length;
  }

  get size(): number {
    return this.#size;
  }

  /** The nested arrays of the values (int64 as bigint, bool as boolean); a scalar for rank 0. */
  toArray(): unknown {
    const data = this.#host('toArray');
    const shape = this.#shape;
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
    if (!this.#buffers) return `Tensor(disposed, shape=${shapeText(this.#shape)}, dtype=${this.#dtype})`;
    if (isDeviceValues(this.#data))
      return `Tensor(on the ${this.#data.backend} device, shape=${shapeText(this.#shape)}, dtype=${this.#dtype})`;
    const data = this.#data;
    return `Tensor(${formatDense(this.#shape, (i) => getValue(data, i))}, shape=${shapeText(this.#shape)}, dtype=${this.#dtype})`;
  }

  /** What console.log shows in Node: toString(), dims of more than 20 summarized by their first and last 3. */
  [INSPECT](): string {
    return this.toString();
  }

  /** Prints toString() with console.log, as TensorFlow.js's `t.print()`. */
  print(): void {
    console.log(this.toString());
  }

  /** The plain data a kernel takes, as copies. */
  toData(): DenseData {
    return { kind: 'dense', data: this.dataSync(), shape: this.#shape.slice(), dtype: this.#dtype };
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
  const d = denseFromPlain(value, dtype, shape, 'tensor');
  // A typed array of the dtype's storage is kept by the conversion (as a view of the caller's memory): the Tensor
  // needs its own.
  const shared = dtypeOfStorage(trustedList(value)) === d.dtype;
  return adoptDense(shared ? { ...d, data: d.data.slice() as Values } : d, true);
}

/**
 * The dense data of a plain value (see `tensor`), for a kernel: a typed array of the dtype's storage is used as it
 * is, not copied. Errors start with `what`.
 */
export function denseFromPlain(
  value: unknown,
  dtype: DType | undefined,
  shape: readonly number[] | undefined,
  what: string,
): DenseData {
  if (value instanceof Tensor) {
    if (dtype !== undefined && dtype !== value.dtype)
      throw new TypeError(`${what}: a ${value.dtype} Tensor is not ${dtype}`);
    return denseDataOf(value);
  }
  if (dtype !== undefined && !isDType(dtype)) throw new TypeError(`${what}: unknown dtype ${describe(dtype)}`);
  value = trustedList(value);
  const storage = dtypeOfStorage(value);
  // The element count comes first, from the lengths alone: nothing is read or allocated for a count past the limit.
  const fromShape = storage !== undefined ? [(value as Values).length] : nestedShape(value, what);
  assertAllocatable(fromShape, what);
  const finalShape = shape === undefined ? fromShape : toShape(shape, `${what}: shape`);
  const n = sizeOf(fromShape);
  if (sizeOf(finalShape) !== n) {
    throw new InvalidArgumentError(
      `${what}: shape ${shapeText(finalShape)} needs ${sizeOf(finalShape)} values, got ${n}`,
    );
  }
  if (storage !== undefined) {
    const dt = dtype ?? storage;
    return { kind: 'dense', data: toValues(value as Values, dt, what), shape: finalShape, dtype: dt };
  }
  const dt = dtype ?? inferNestedDType(value, fromShape, what);
  return { kind: 'dense', data: nestedValues(value, fromShape, dt, what), shape: finalShape, dtype: dt };
}
