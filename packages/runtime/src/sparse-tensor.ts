import type { SparseData } from '@sparse/kernel-abi';
import { dtypeOfStorage, describe, getValue, inferDType, isDType, toValues, type DType, type Values } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import { shapeText, toShape } from './shape.js';
import { formatNested, type Tensor } from './tensor.js';
import { defaultOps } from './default-ops.js';
import type { ScalarLike, TensorLike } from './arg-types.js';

/** The plain-data form of a SparseTensor (TensorFlow's SparseTensorValue), as JSON can hold it: int64 past 2^53 as digit strings. */
export interface SparseTensorValue {
  indices: number[][];
  values: (number | string | boolean)[];
  dense_shape: number[];
  dtype: DType;
}

/**
 * A sparse tensor: `indices` (N index tuples), `values` (N values) and `denseShape`, as TensorFlow's SparseTensor.
 * Order is not checked here (ops that need canonical order check it); shapes and lengths are.
 */
export class SparseTensor {
  /** The indices, flat and row-major: entry i, dim d is `indexData[i * rank + d]`. */
  readonly indexData: Float64Array;
  readonly values: Values;
  readonly denseShape: number[];
  readonly dtype: DType;

  constructor(
    indices: readonly (readonly (number | bigint)[])[] | ArrayLike<number | bigint>,
    values: ArrayLike<unknown>,
    denseShape: ArrayLike<number | bigint>,
    dtype?: DType,
  ) {
    if (dtype !== undefined && !isDType(dtype)) throw new TypeError(`SparseTensor: unknown dtype ${describe(dtype)}`);
    this.denseShape = toShape(denseShape, 'SparseTensor: dense_shape');
    if (typeof values !== 'object' || values === null || typeof values.length !== 'number') {
      throw new TypeError(`SparseTensor: values must be a list or typed array, got ${describe(values)}`);
    }
    this.dtype = dtype ?? dtypeOfStorage(values) ?? inferDType(Array.from(values));
    this.values = toValues(values, this.dtype, 'SparseTensor: values');
    this.indexData = readIndices(indices, this.denseShape.length, this.values.length);
  }

  /** Wraps kernel output without copying or re-checking it. */
  static fromData(d: SparseData): SparseTensor {
    const st = Object.create(SparseTensor.prototype) as { -readonly [K in keyof SparseTensor]: SparseTensor[K] };
    st.indexData = d.indices;
    st.values = d.values;
    st.denseShape = d.shape;
    st.dtype = d.dtype;
    return st as SparseTensor;
  }

  /** Builds a SparseTensor from its plain-data form (`toJSON()`'s output, or a SparseTensorValue). */
  static fromJSON(v: {
    indices: ArrayLike<unknown>;
    values: ArrayLike<unknown>;
    dense_shape: ArrayLike<number | bigint>;
    dtype?: DType;
  }): SparseTensor {
    if (typeof v !== 'object' || v === null)
      throw new TypeError(`SparseTensor.fromJSON: expected {indices, values, dense_shape}, got ${describe(v)}`);
    return new SparseTensor(v.indices as never, v.values, v.dense_shape, v.dtype);
  }

  get rank(): number {
    return this.denseShape.length;
  }

  get nnz(): number {
    return this.values.length;
  }

  /** The dense shape (TensorFlow's `shape`). */
  get shape(): number[] {
    return this.denseShape.slice();
  }

  /** The indices as N index tuples. */
  get indices(): number[][] {
    const { rank, nnz, indexData } = this;
    const out = new Array<number[]>(nnz);
    for (let i = 0; i < nnz; i++) out[i] = Array.from(indexData.subarray(i * rank, (i + 1) * rank));
    return out;
  }

  /** A SparseTensor with the same indices and shape and new values (of any dtype, as TensorFlow's `with_values`). */
  withValues(newValues: ArrayLike<unknown>, dtype?: DType): SparseTensor {
    const dt = dtype ?? dtypeOfStorage(newValues) ?? inferDType(Array.from(newValues));
    const values = toValues(newValues, dt, 'withValues: new_values');
    if (values.length !== this.nnz) {
      throw new InvalidArgumentError(`withValues: new_values has ${values.length} entries, the tensor has ${this.nnz}`);
    }
    return SparseTensor.fromData({
      kind: 'sparse',
      indices: this.indexData,
      values,
      shape: this.denseShape,
      dtype: dt,
    });
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

  /** The plain data for kernels. */
  toData(): SparseData {
    return {
      kind: 'sparse',
      indices: this.indexData,
      values: this.values,
      shape: this.denseShape.slice(),
      dtype: this.dtype,
    };
  }

  toJSON(): SparseTensorValue {
    const values = new Array<number | string | boolean>(this.nnz);
    for (let i = 0; i < this.nnz; i++) {
      const v = getValue(this.values, i);
      values[i] = typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()) : v;
    }
    return { indices: this.indices, values, dense_shape: this.denseShape.slice(), dtype: this.dtype };
  }

  toString(): string {
    const vals = Array.from({ length: Math.min(this.nnz, 20) }, (_, i) => getValue(this.values, i));
    const more = this.nnz > 20 ? [`… ${this.nnz - 20} more`] : [];
    return (
      `SparseTensor(indices=${formatNested(this.indices.slice(0, 20))}${this.nnz > 20 ? '…' : ''}, ` +
      `values=${formatNested([...vals, ...more])}, dense_shape=${shapeText(this.denseShape)}, dtype=${this.dtype})`
    );
  }
}

/** Reads indices given as N tuples or flat row-major; each entry must be a whole number (bounds are checked by ops). */
function readIndices(indices: unknown, rank: number, nnz: number): Float64Array {
  const what = 'SparseTensor: indices';
  if (typeof indices !== 'object' || indices === null || typeof (indices as ArrayLike<unknown>).length !== 'number') {
    throw new TypeError(`${what} must be a list of index tuples or a flat typed array, got ${describe(indices)}`);
  }
  const list = indices as ArrayLike<unknown>;
  const out = new Float64Array(nnz * rank);
  const nested = Array.isArray(list) && list.length > 0 && Array.isArray(list[0]);
  if (nested || (Array.isArray(list) && list.length === nnz && rank !== 1 && nnz > 0)) {
    if (list.length !== nnz)
      throw new InvalidArgumentError(`${what} has ${list.length} rows but values has ${nnz} entries`);
    for (let i = 0; i < nnz; i++) {
      const row = list[i];
      if (!Array.isArray(row)) throw new TypeError(`${what}[${i}] must be an index tuple, got ${describe(row)}`);
      if (row.length !== rank) {
        throw new InvalidArgumentError(`${what}[${i}] has ${row.length} entries but dense_shape has rank ${rank}`);
      }
      for (let d = 0; d < rank; d++) out[i * rank + d] = indexEntry(row[d], `${what}[${i}][${d}]`);
    }
    return out;
  }
  if (list.length !== nnz * rank) {
    throw new InvalidArgumentError(
      `${what} holds ${list.length} numbers; ${nnz} values of rank ${rank} need ${nnz * rank} (shape [N, rank])`,
    );
  }
  for (let k = 0; k < list.length; k++) out[k] = indexEntry(list[k], `${what}[${Math.floor(k / rank)}][${k % rank}]`);
  return out;
}

function indexEntry(x: unknown, what: string): number {
  const v = typeof x === 'bigint' ? Number(x) : x;
  if (typeof v !== 'number') throw new TypeError(`${what} must be a number, got ${describe(x)}`);
  if (!Number.isInteger(v)) throw new InvalidArgumentError(`${what} = ${describe(x)} is not a whole number`);
  return v;
}
