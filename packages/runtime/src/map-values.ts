import { describe, dtypeOfStorage, type DType, type Values } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import type { TypedArray } from './list-input.js';
import { readOptions } from './op-options.js';
import { asList, checkDType, readValues } from './sparse-input.js';
import { adoptSparse, sparseDataOf, SparseTensor } from './sparse-tensor.js';
import { coalesce } from './coalesce.js';
import { cast } from './cast.js';

/** The name errors give it: TensorFlow's `tf.sparse.map_values`, as the ops are named. */
const OP = 'sparse_map_values';

/** Optional arguments of {@link JsSideOps.mapValues}. */
export interface MapValuesOptions {
  /**
   * The dtype of the result's values: what `fn` returns is converted to it (a value it cannot hold is refused).
   *
   * Default: the dtype of the typed array `fn` returns (Float32Array: float32, Float64Array: float64, Int32Array:
   * int32, BigInt64Array: int64, Uint8Array: bool); for any other array, the dtype of `sp_input`.
   */
  dtype?: DType;
}

/** The values a `mapValues` function returns: one per stored entry. */
export type MappedValues = readonly unknown[] | TypedArray;

/** The ops of `sparse.*` that run in JS on every backend, since they call a JS function: not specs, not kernels. */
export interface JsSideOps {
  /**
   * `fn` of the stored values of `spInput`: a SparseTensor with the indices and dense shape of `spInput` and the
   * values `fn` returns (TensorFlow's `tf.sparse.map_values(fn, sp_input)`). `fn` is called once, with a copy of
   * the values (a typed array; an array for string), and returns as many values, in order; implicit zeros are not
   * passed to it, so they stay absent whatever `fn` makes of 0. The result's dtype is what `fn` returns, as in
   * TensorFlow: a typed array's own dtype, the dtype of `spInput` for a plain array, or `options.dtype`.
   *
   * It runs in JavaScript on every backend (a JS function cannot run in the wasm or GPU kernels), so it is not an
   * op of `rt.run` and has no spec. For a function of the expression language, prefer its op (`sparse.expm1`,
   * `sparse.sin`…), which runs on the backend. fn returning something other than an array or typed array is a
   * TypeError, the wrong number of values an InvalidArgumentError, a value the dtype cannot hold a TypeError, each
   * naming `sparse_map_values`.
   */
  mapValues(spInput: SparseTensor, fn: (values: Values) => MappedValues, options?: MapValuesOptions): SparseTensor;
  /**
   * Repeated indices summed, as PyTorch's `coalesce()` and scipy's `sum_duplicates()`: the entries in canonical
   * order, each index once, its values added in their order (float32 rounding each sum; int32 and int64 wrap; bool is
   * true where any is). In JS on every backend. String values are a TypeError.
   */
  coalesce(spInput: SparseTensor): SparseTensor;
  /**
   * Its values in another dtype, indices and dense shape unchanged, as TensorFlow's `tf.cast` of a SparseTensor
   * (PyTorch's `.to(dtype)`, scipy's `.astype`): each value as TensorFlow's Cast kernel converts it on a CPU (floats to
   * integers truncate, NaN and values out of range becoming the integer's least value; anything to bool is whether it
   * is nonzero). A stored value that becomes 0 stays stored. In JS on every backend; string values are a TypeError.
   */
  cast(spInput: SparseTensor, dtype: DType): SparseTensor;
}

function mapValues(
  spInput: SparseTensor,
  fn: (values: Values) => MappedValues,
  options?: MapValuesOptions,
  ...extra: unknown[]
): SparseTensor {
  const o = readOptions('mapValues', options, ['dtype'], extra);
  checkDType(o.dtype, `${OP}: dtype`);
  if (!(spInput instanceof SparseTensor))
    throw new TypeError(`${OP}: sp_input must be a SparseTensor, got ${describe(spInput)}`);
  if (typeof fn !== 'function') throw new TypeError(`${OP}: fn must be a function of the values, got ${describe(fn)}`);
  const data = sparseDataOf(spInput);
  const what = `${OP}: the values fn returned`;
  const list = asList(fn(spInput.values), what);
  if (list.length !== spInput.nnz) {
    throw new InvalidArgumentError(
      `${OP}: fn returned ${list.length} values for the ${spInput.nnz} stored entries of sp_input; it must return one per entry`,
    );
  }
  const read = readValues(list, o.dtype ?? dtypeOfStorage(list) ?? data.dtype, what);
  // The indices and shape are shared: neither tensor lets them change.
  return adoptSparse({ ...data, values: read.values, dtype: read.dtype } as typeof data);
}

/** The JS-side ops, for `sparse` and every runtime's `rt.sparse`. */
export const JS_SIDE_OPS: JsSideOps = { mapValues, coalesce, cast };
