import { markImmutable, type CsrData } from '@sparse/kernel-abi';
import { describe, getValue, type DType, type Values } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import { shapeText } from './shape.js';
import type { Tensor } from './tensor.js';
import { formatList, formatScalar, INSPECT } from './print.js';
import type { SparseTensor } from './sparse-tensor.js';
import { defaultOps } from './default-ops.js';
import type { TypedArray } from './list-input.js';
import { isPlainObject } from './plain-object.js';
import { readCsrParts, type CsrPartName } from './csr-input.js';
import { adoptStorage, disposeStorage } from './tensor-storage.js';

/** The options of the CsrMatrix constructor. */
export interface CsrMatrixOptions {
  dtype?: DType;
  /** Sort each row's columns and sum repeated ones (scipy's `sum_duplicates`), rather than refuse them. */
  canonicalize?: boolean;
}

/** The constructor's last argument: a dtype, or options (checked: an unknown key is a TypeError). */
function csrOptions(x: DType | CsrMatrixOptions | undefined): CsrMatrixOptions {
  if (x === undefined || typeof x === 'string') return { dtype: x };
  if (!isPlainObject(x))
    throw new TypeError(`CsrMatrix: the last argument is a dtype or { dtype, canonicalize }, got ${describe(x)}`);
  for (const k of Object.keys(x))
    if (k !== 'dtype' && k !== 'canonicalize')
      throw new TypeError(`CsrMatrix: unknown option '${k}'; the options are dtype, canonicalize`);
  if (x.canonicalize !== undefined && typeof x.canonicalize !== 'boolean')
    throw new TypeError(`CsrMatrix: canonicalize must be a boolean, got ${describe(x.canonicalize)}`);
  return x;
}

/** The plain-data form of a CsrMatrix, as JSON holds it and as the case format writes it (TensorFlow's part names). */
export interface CsrMatrixValue {
  batch_pointers?: number[];
  row_pointers: number[];
  col_indices: number[];
  values: (number | string)[];
  dense_shape: number[];
  dtype: DType;
}

const FROM_JSON_KEYS = ['batch_pointers', 'row_pointers', 'col_indices', 'values', 'dense_shape', 'dtype'];

// What a disposed matrix holds in place of its arrays.
const DISPOSED = new Int32Array(0);

// JS has no private constructor: `adoptCsr` sets this for the one `new` it makes, which then takes the kernel
// output as it is instead of checking and copying what a caller gave.
let adopting: CsrData | undefined;

/** Wraps kernel output without copying or re-checking it; nothing else may hold it. */
export function adoptCsr(d: CsrData): CsrMatrix {
  adopting = d;
  try {
    return new CsrMatrix([], [], [], [0, 0]);
  } finally {
    adopting = undefined;
  }
}

/** The stored data of a CsrMatrix, not copied: for the runtime to hand to kernels, which never write to it. */
export let csrDataOf: (m: CsrMatrix) => CsrData;

/**
 * A sparse matrix in compressed sparse row (CSR) form, or a batch of them: TensorFlow's CSRSparseMatrix
 * (`tf.linalg.experimental.sparse.CSRSparseMatrix`), scipy's `csr_matrix`. A matrix of dense shape [rows, cols]
 * keeps its entries row by row: row r holds `colIndices` and `values` from `rowPointers[r]` up to
 * `rowPointers[r + 1]`, columns sorted without repeats. A batch, dense shape [batch, rows, cols], keeps each matrix's
 * entries one after another, each with rows + 1 row pointers starting at 0, and `batchPointers[b]` where matrix b's
 * entries start.
 *
 * It is immutable, as SparseTensor is: the constructor checks and copies what it is given, `denseShape` is frozen,
 * and every array it gives out is a copy. The ops that make and take one are the `sparse_matrix_*` and
 * `*_csr_sparse_matrix*` ops (`sparse.matrixSparseMatMul`, `sparse.csrSparseMatrixToDense`...).
 */
export class CsrMatrix {
  #data: CsrData;
  // Its large buffers (tensor-storage.ts); undefined once disposed.
  #buffers: ArrayBufferLike[] | undefined;
  readonly #nnz: number;
  #marked = false;
  #frozenShape: readonly number[] | undefined;

  static {
    csrDataOf = (m) => {
      const d = m.#live('data');
      // Marked immutable when first handed to a kernel, so that a backend may keep a prepared copy of its arrays.
      if (!m.#marked) {
        markImmutable(d.rowPointers, d.colIndices);
        markImmutable(d.values as object, d.batchPointers);
        m.#marked = true;
      }
      return { ...d, shape: d.shape.slice() };
    };
  }

  /**
   * A matrix from its parts: the row pointers (`batch * (rows + 1)` of them), the column indices and values of its
   * entries, and the dense shape [rows, cols] or [batch, rows, cols]; the dtype is inferred from the values as
   * TensorFlow converts Python values when not given, and must be float32 or float64, as TensorFlow's (a TypeError
   * otherwise: whole numbers infer int32, so give the dtype). Pointers and columns may be int64 (a BigInt64Array, as
   * scipy's on a large matrix) where they fit int32. Everything is checked (an InvalidArgumentError naming the part
   * and the index) and copied. The last argument is the dtype, or options: `{ dtype, canonicalize }`, where
   * `canonicalize: true` sorts each row's columns and sums repeated ones in their order (scipy's `sum_duplicates`:
   * scipy allows both, TensorFlow neither) instead of refusing them.
   */
  constructor(
    rowPointers: readonly (number | bigint)[] | TypedArray,
    colIndices: readonly (number | bigint)[] | TypedArray,
    values: readonly unknown[] | TypedArray,
    denseShape: readonly number[],
    dtypeOrOptions?: DType | CsrMatrixOptions,
  ) {
    const { dtype, canonicalize } = csrOptions(dtypeOrOptions);
    this.#data =
      adopting ??
      readCsrParts({ rowPointers, colIndices, values, denseShape, dtype, canonicalize }, (p) => `CsrMatrix: ${p}`);
    adopting = undefined;
    this.#nnz = this.#data.colIndices.length;
    this.#buffers = adoptStorage(this.#data.colIndices, this.#data.values);
    Object.freeze(this);
  }

  /** A matrix from its plain-data form (`toJSON()`'s output: TensorFlow's part names, batch_pointers optional). */
  static fromJSON(v: Partial<CsrMatrixValue> | Record<string, unknown>): CsrMatrix {
    return csrFromPlain(v, 'CsrMatrix.fromJSON', (p) => `CsrMatrix.fromJSON: ${p}`);
  }

  /** The CSR form of a rank-2 or rank-3 SparseTensor in canonical order (sparse_tensor_to_csr_sparse_matrix). */
  static fromSparseTensor(st: SparseTensor): CsrMatrix {
    return defaultOps().tensorToCsrSparseMatrix(st);
  }

  /** Where each row's entries start and end, each batch's counted from 0: `batch * (rows + 1)` pointers. A copy. */
  get rowPointers(): Int32Array {
    return this.#live('rowPointers').rowPointers.slice();
  }

  /** The column of each entry, row by row (batch by batch). A copy. */
  get colIndices(): Int32Array {
    return this.#live('colIndices').colIndices.slice();
  }

  /** Where each batch's entries start, and the total: `batch + 1` pointers ([0, nnz] for a matrix). A copy. */
  get batchPointers(): Int32Array {
    return this.#live('batchPointers').batchPointers.slice();
  }

  /** The values, in the dtype's storage. A copy: read it once. */
  get values(): Values {
    return this.#live('values').values.slice() as Values;
  }

  /** The dense shape, [rows, cols] or [batch, rows, cols], frozen. */
  get denseShape(): readonly number[] {
    this.#frozenShape ??= Object.freeze(this.#data.shape.slice());
    return this.#frozenShape;
  }

  /** The dense shape as a new array. */
  get shape(): number[] {
    return this.#data.shape.slice();
  }

  get dtype(): DType {
    return this.#data.dtype;
  }

  get rank(): number {
    return this.#data.shape.length;
  }

  /** The stored entries, explicit zeros included (TensorFlow's sparse_matrix_nnz, summed over the batch). */
  get nnz(): number {
    return this.#nnz;
  }

  /** The dense matrix (csr_sparse_matrix_to_dense on the default runtime). */
  toDense(): Tensor {
    return defaultOps().csrSparseMatrixToDense(this);
  }

  /** The SparseTensor of the same entries, in canonical order (csr_sparse_matrix_to_sparse_tensor). */
  toSparse(): SparseTensor {
    return defaultOps().csrSparseMatrixToSparseTensor(this);
  }

  /**
   * Gives back the memory of this matrix, as SparseTensor.dispose() does: what any backend holds prepared for it and
   * its own arrays. Its dense shape, dtype, rank and nnz still read; its data does not, and an op given it throws.
   */
  dispose(): void {
    const buffers = this.#buffers;
    if (!buffers) return;
    this.#buffers = undefined;
    const d = this.#data;
    disposeStorage([d.rowPointers, d.colIndices, d.values, d.batchPointers], buffers);
    this.#data = { ...d, rowPointers: DISPOSED, colIndices: DISPOSED, batchPointers: DISPOSED, values: DISPOSED };
  }

  /** Whether `dispose()` was called. */
  get isDisposed(): boolean {
    return !this.#buffers;
  }

  #live(what: string): CsrData {
    if (!this.#buffers) {
      throw new InvalidArgumentError(
        `CsrMatrix.${what}: the matrix was disposed (dispose() gave its memory back), so it holds no data`,
      );
    }
    return this.#data;
  }

  /** The plain data kernels take, as copies. */
  toData(): CsrData {
    const d = this.#live('toData');
    return {
      ...d,
      batchPointers: d.batchPointers.slice(),
      rowPointers: d.rowPointers.slice(),
      colIndices: d.colIndices.slice(),
      values: d.values.slice() as Values,
      shape: d.shape.slice(),
    };
  }

  toJSON(): CsrMatrixValue {
    const d = this.#live('toJSON');
    return {
      batch_pointers: Array.from(d.batchPointers),
      row_pointers: Array.from(d.rowPointers),
      col_indices: Array.from(d.colIndices),
      values: Array.from({ length: d.values.length }, (_, i) => getValue(d.values, i) as number),
      dense_shape: d.shape.slice(),
      dtype: d.dtype,
    };
  }

  toString(): string {
    const d = this.#data;
    if (!this.#buffers) return `CsrMatrix(disposed, dense_shape=${shapeText(d.shape)}, dtype=${d.dtype})`;
    const list = (a: ArrayLike<unknown>) => formatList(a.length, (i) => String(a[i]));
    const values = formatList(d.values.length, (i) => formatScalar(getValue(d.values, i)));
    return (
      `CsrMatrix(row_pointers=${list(d.rowPointers)}, col_indices=${list(d.colIndices)}, ` +
      `values=${values}, dense_shape=${shapeText(d.shape)}, dtype=${d.dtype})`
    );
  }

  /** What console.log shows in Node: toString(), long arrays summarized by their first and last 3. */
  [INSPECT](): string {
    return this.toString();
  }

  /** Prints toString() with console.log. */
  print(): void {
    console.log(this.toString());
  }
}

/**
 * A CsrMatrix from its plain-data form `{row_pointers, col_indices, values, dense_shape, batch_pointers?, dtype?}`,
 * as a request body gives it; errors name it (`what`) and its parts (`name`), and an unknown key is refused.
 */
export function csrFromPlain(v: unknown, what: string, name: CsrPartName): CsrMatrix {
  if (!isPlainObject(v))
    throw new TypeError(`${what} must be {row_pointers, col_indices, values, dense_shape}, got ${describe(v)}`);
  const unknown = Object.keys(v).find((k) => !FROM_JSON_KEYS.includes(k));
  if (unknown !== undefined) {
    throw new TypeError(`${what}: unknown field '${unknown}' (the fields are ${FROM_JSON_KEYS.join(', ')})`);
  }
  const p = v as Record<string, unknown>;
  return adoptCsr(
    readCsrParts(
      {
        batchPointers: p.batch_pointers,
        rowPointers: p.row_pointers,
        colIndices: p.col_indices,
        values: p.values,
        denseShape: p.dense_shape,
        dtype: p.dtype,
      },
      name,
    ),
  );
}
