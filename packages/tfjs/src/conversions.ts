import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, SparseTensor, Tensor, tensor, type DType } from '@sparse/runtime';

// Tensors both ways between TensorFlow.js and sparse. TF.js holds float32, int32, bool, string (and complex64,
// which sparse has not); sparse also holds float64 and int64. A dtype TF.js lacks is never converted silently: it
// is refused, or narrowed where the call asks for it (`{ dtype }`), each value checked to fit.

/** TF.js's dtypes that sparse holds as they are. */
const SHARED: readonly string[] = ['float32', 'int32', 'bool', 'string'];

/** What `toTf` and `sparseToTf` may narrow a dtype TF.js lacks to: float64 → float32, int64 → int32. */
export interface NarrowOptions {
  /**
   * The TF.js dtype to narrow to: float64 values are rounded to float32 (an overflow becomes ±Infinity, as a cast
   * does); int64 values must fit int32 (each one is checked: an InvalidArgumentError names the first that does not).
   * Without it, a float64 or int64 tensor is a TypeError.
   */
  dtype?: 'float32' | 'int32';
}

/** A SparseTensor as TF.js tensors, as `tf.SparseTensor` holds one in Python: int32 indices [nnz, rank], values [nnz], the dense shape. */
export interface TfSparseTensor {
  indices: tf.Tensor2D;
  values: tf.Tensor1D;
  denseShape: readonly number[];
}

/**
 * Whether `x` is a TF.js tensor (by its shape, not its class: an app may hold more than one copy of tfjs-core; its
 * `dataId` tells it from a sparse Tensor, which reads the same way).
 */
export function isTfTensor(x: unknown): x is tf.Tensor {
  return (
    typeof x === 'object' &&
    x !== null &&
    (x as tf.Tensor).dataId !== undefined &&
    typeof (x as tf.Tensor).dataSync === 'function' &&
    typeof (x as tf.Tensor).dtype === 'string' &&
    Array.isArray((x as tf.Tensor).shape)
  );
}

/** Whether `x` is a TfSparseTensor: TF.js indices and values and a dense shape. */
export function isTfSparse(x: unknown): x is TfSparseTensor {
  return (
    typeof x === 'object' &&
    x !== null &&
    // A SparseTensor's own `indices` is a (costly) nested list: it is not one.
    !(x instanceof SparseTensor) &&
    isTfTensor((x as TfSparseTensor).indices) &&
    isTfTensor((x as TfSparseTensor).values) &&
    'denseShape' in x
  );
}

/** The TF.js dtype a sparse dtype becomes: itself where TF.js has it, else the narrowing asked for, else a TypeError. */
function tfDtype(dtype: DType, what: string, options: NarrowOptions): 'float32' | 'int32' | 'bool' | 'string' {
  if (SHARED.includes(dtype)) return dtype as 'float32' | 'int32' | 'bool' | 'string';
  const to = options.dtype;
  const fits = (dtype === 'float64' && to === 'float32') || (dtype === 'int64' && to === 'int32');
  if (!fits)
    throw new TypeError(
      `${what}: TF.js has no ${dtype}; pass { dtype: '${dtype === 'float64' ? 'float32' : 'int32'}' } to narrow it` +
        (to ? ` (not '${to}')` : ''),
    );
  return to!;
}

/** Values in a TF.js dtype: float64 rounded to float32; int64 checked against int32, each one. */
function narrowValues(values: ArrayLike<unknown>, from: DType, to: string, what: string): ArrayLike<unknown> {
  if (from === 'float64') return Float32Array.from(values as Float64Array);
  if (from === 'int64') {
    const out = new Int32Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const v = (values as BigInt64Array)[i];
      if (v < -2147483648n || v > 2147483647n)
        throw new InvalidArgumentError(`${what}: value ${i} = ${v} does not fit int32 (narrowing int64 to ${to})`);
      out[i] = Number(v);
    }
    return out;
  }
  return values;
}

/** A sparse dense Tensor as a TF.js tensor (a copy); float64 and int64 only with `{ dtype }`. */
export function toTf(t: Tensor, options: NarrowOptions = {}): tf.Tensor {
  const dtype = tfDtype(t.dtype, 'toTf', options);
  const data = narrowValues(t.dataSync() as ArrayLike<unknown>, t.dtype, dtype, 'toTf');
  return tf.tensor(data as never, [...t.shape], dtype);
}

/**
 * A TF.js tensor as a sparse dense Tensor (a copy, read synchronously: `dataSync`). float32, int32, bool and string
 * keep their dtype; complex64, which sparse has not, is a TypeError.
 */
export function fromTf(t: tf.Tensor): Tensor {
  if (!SHARED.includes(t.dtype))
    throw new TypeError(`fromTf: sparse has no ${t.dtype} (TF.js tensors of float32, int32, bool, string convert)`);
  const data = t.dtype === 'string' ? (t.arraySync() as unknown as string[]).flat(Infinity) : readAtOnce(t, 'fromTf');
  return tensor(data as never, t.dtype as DType, [...t.shape]);
}

/**
 * A TF.js tensor's values, read at once (`dataSync`). TF.js's webgpu backend does that only in a browser (through an
 * OffscreenCanvas): in Node it fails, and the error says what to do instead.
 */
function readAtOnce(t: tf.Tensor, what: string): ArrayLike<unknown> {
  try {
    return t.dataSync();
  } catch (e) {
    if (
      tf.getBackend() !== 'webgpu' ||
      typeof (globalThis as { OffscreenCanvas?: unknown }).OffscreenCanvas === 'function'
    )
      throw e;
    throw new TypeError(
      `${what}: TF.js's webgpu backend reads a tensor at once only in a browser, and this one lives on its GPU. ` +
        "Use sparse's webgpu backend on TF.js's device (createWebGpuBackend({ device: tf.backend().device })), whose " +
        'element-wise, reduction and sparse-dense matmul ops take TF.js tensors where they are; for the others, read ' +
        'the tensor first (await x.data()) and pass the values, or run TF.js on its cpu or wasm backend',
      { cause: e },
    );
  }
}

/** The largest dim a TF.js int32 index holds. */
const I32_MAX = 2 ** 31 - 1;

/** A SparseTensor as TF.js tensors: int32 indices (every dim must fit int32), values, and its dense shape. */
export function sparseToTf(st: SparseTensor, options: NarrowOptions = {}): TfSparseTensor {
  const shape = st.denseShape;
  const big = shape.findIndex((d) => d > I32_MAX);
  if (big >= 0)
    throw new InvalidArgumentError(
      `sparseToTf: dense shape dim ${big} = ${shape[big]} exceeds 2^31 - 1, which TF.js int32 indices cannot hold`,
    );
  const dtype = tfDtype(st.dtype, 'sparseToTf', options);
  const values = narrowValues(st.values as ArrayLike<unknown>, st.dtype, dtype, 'sparseToTf');
  const n = st.values.length;
  const rank = shape.length;
  return {
    indices: tf.tensor2d(Int32Array.from(st.indexData), [n, rank], 'int32'),
    values: tf.tensor1d(values as never, dtype),
    denseShape: [...shape],
  };
}

/**
 * TF.js indices ([nnz, rank], int32), values ([nnz]) and a dense shape (numbers or a TF.js tensor) as a
 * SparseTensor; the SparseTensor constructor checks them as it checks any (whole numbers within the dense shape,
 * one value per index). The values keep their dtype (float32, int32, bool, string).
 */
export function sparseFromTf(
  indices: tf.Tensor,
  values: tf.Tensor,
  denseShape: tf.Tensor | readonly number[],
): SparseTensor {
  if (indices.rank !== 2)
    throw new InvalidArgumentError(`sparseFromTf: indices must be [nnz, rank], got shape [${indices.shape}]`);
  const shape = isTfTensor(denseShape) ? Array.from(denseShape.dataSync()) : [...denseShape];
  const v = fromTf(values);
  return new SparseTensor(indices.dataSync() as Int32Array, v.dataSync() as never, shape, v.dtype);
}
