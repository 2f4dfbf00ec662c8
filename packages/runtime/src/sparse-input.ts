import type { SparseData, WideSparseData } from '@sparse/kernel-abi';
import { DTYPES, describe, dtypeOfStorage, inferDType, isDType, toValues, type DType, type Values } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import { isList, trustedList } from './list-input.js';
import { shapeText, toExactShape } from './shape.js';
import { readInt64 } from './whole-number.js';

/** Names a part of the SparseTensor being read in errors: `SparseTensor: values`, `sparse_add: a.values`. */
export type PartName = (part: 'indices' | 'values' | 'dense_shape' | 'dtype') => string;

/**
 * Reads a SparseTensor's parts as given, into storage of its own (nothing shared with the caller). Cheap checks come
 * before any copy, so a request that only claims a size costs nothing: each part must be a list (an array or a typed
 * array, never an object with a `length`), the dense shape a shape, and the lengths must agree (indices rows, or a
 * flat nnz × rank, against the values). Indices are whole numbers here; their bounds are checked by each op.
 * A dense shape with a dim past 2^53 - 1 makes wide data: dims and indices held exactly as BigInt.
 */
export function readSparseParts(
  indices: unknown,
  values: unknown,
  denseShape: unknown,
  dtype: unknown,
  name: PartName,
): SparseData | WideSparseData {
  checkDType(dtype, name('dtype'));
  const indexList = asList(indices, name('indices'));
  const valueList = asList(values, name('values'));
  const shape = toExactShape(denseShape, name('dense_shape'));
  const form = indexForm(indexList, valueList.length, shape.length, name);
  const read = readValues(valueList, dtype, name('values'));
  const nnz = valueList.length;
  if (isWideShape(shape)) {
    const exact = readIndices(indexList, form, nnz, shape.length, name, new BigInt64Array(nnz * shape.length), BigInt);
    return { kind: 'wide_sparse', indices: exact, values: read.values, shape, dtype: read.dtype };
  }
  const narrow = readIndices(indexList, form, nnz, shape.length, name, new Float64Array(nnz * shape.length), (x) => {
    if (typeof x === 'number') return x;
    throw new InvalidArgumentError(`${name('indices')} holds ${x}, out of bounds of dense_shape ${shapeText(shape)}`);
  });
  return { kind: 'sparse', indices: narrow, values: read.values, shape, dtype: read.dtype };
}

const isWideShape = (shape: number[] | bigint[]): shape is bigint[] => typeof shape[0] === 'bigint';

/** Refuses a dtype that is given and is not one. */
export function checkDType(dtype: unknown, what: string): asserts dtype is DType | undefined {
  if (dtype !== undefined && !isDType(dtype)) {
    throw new TypeError(`${what}: unknown dtype ${describe(dtype)} (the dtypes are ${DTYPES.join(', ')})`);
  }
}

/** `x` as a list conversion may trust (see trustedList), or a TypeError naming it and what was given. */
export function asList(x: unknown, what: string): ArrayLike<unknown> {
  if (!isList(x)) throw new TypeError(`${what} must be an array or a typed array, got ${describe(x)}`);
  return trustedList(x) as ArrayLike<unknown>;
}

/** Values in storage of their own: of `dtype`, or of the dtype TensorFlow would give them when it is not given. */
export function readValues(
  list: ArrayLike<unknown>,
  dtype: DType | undefined,
  what: string,
): { values: Values; dtype: DType } {
  const dt = dtype ?? dtypeOfStorage(list) ?? inferDType(list, what);
  const values = toValues(list, dt, what);
  return { values: values === list ? (values.slice() as Values) : values, dtype: dt };
}

/**
 * Whether indices come as N index tuples (`rows`) or flat and row-major (`flat`), once their length agrees with
 * nnz values of the rank. A list of nnz entries for a rank other than 1 is read as tuples, so that a flat list of the
 * wrong length is not mistaken for one.
 */
function indexForm(list: ArrayLike<unknown>, nnz: number, rank: number, name: PartName): 'rows' | 'flat' {
  const rows =
    Array.isArray(list) &&
    ((list.length > 0 && Array.isArray(list[0])) || (list.length === nnz && rank !== 1 && nnz > 0));
  if (rows && list.length !== nnz) {
    throw new InvalidArgumentError(`${name('indices')} has ${list.length} rows but values has ${nnz} entries`);
  }
  if (!rows && list.length !== nnz * rank) {
    throw new InvalidArgumentError(
      `${name('indices')} holds ${list.length} numbers; ${nnz} values of rank ${rank} need ${nnz * rank} (shape [N, rank])`,
    );
  }
  return rows ? 'rows' : 'flat';
}

/** Reads every index entry into `out`, as `store` keeps it (a float, or a bigint for wide data). */
function readIndices<T extends Float64Array | BigInt64Array>(
  list: ArrayLike<unknown>,
  form: 'rows' | 'flat',
  nnz: number,
  rank: number,
  name: PartName,
  out: T,
  store: (x: number | bigint) => T[number],
): T {
  if (form === 'flat') {
    for (let k = 0; k < list.length; k++) out[k] = store(indexEntry(list[k], name, Math.floor(k / rank), k % rank));
    return out;
  }
  for (let i = 0; i < nnz; i++) {
    const row = list[i];
    if (!Array.isArray(row))
      throw new TypeError(`${name('indices')}[${i}] must be an index tuple, got ${describe(row)}`);
    if (row.length !== rank) {
      throw new InvalidArgumentError(
        `${name('indices')}[${i}] has ${row.length} entries but dense_shape has rank ${rank}`,
      );
    }
    for (let d = 0; d < rank; d++) out[i * rank + d] = store(indexEntry(row[d], name, i, d));
  }
  return out;
}

/**
 * One index entry: a whole number within int64, a bigint past 2^53 - 1 (its name is only formatted for an error:
 * this runs once per entry).
 */
function indexEntry(x: unknown, name: PartName, i: number, d: number): number | bigint {
  return typeof x === 'number' && Number.isSafeInteger(x)
    ? x
    : readInt64(x, `${name('indices')}[${i}][${d}]`, { digits: true });
}
