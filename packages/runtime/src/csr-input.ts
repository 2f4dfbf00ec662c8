import type { CsrData } from '@sparse/kernel-abi';
import { describe, dtypeOfStorage, inferDType, type DType } from './dtype.js';
import { InvalidArgumentError } from './errors.js';
import { asList, checkDType, readValues } from './sparse-input.js';
import { shapeText, toShape } from './shape.js';

/** Names a part of the CSR matrix being read in errors: `CsrMatrix: row_pointers`, `sparse_matrix_transpose: input.col_indices`. */
export type CsrPartName = (
  part: 'batch_pointers' | 'row_pointers' | 'col_indices' | 'values' | 'dense_shape' | 'dtype',
) => string;

const INT32_MAX = 2 ** 31 - 1;

// TensorFlow's CSRSparseMatrix holds float32, float64, complex64 and complex128; sparse has the float ones.
const CSR_DTYPES: readonly DType[] = ['float32', 'float64'];

/**
 * Reads a CSR matrix (rank 2) or batch of them (rank 3) from its parts, into storage of its own, and checks that it is
 * one, as TensorFlow's CSRSparseMatrix is: `batch * (rows + 1)` row pointers, each batch's starting at 0 and never
 * decreasing, as many column indices and values as they count, each column inside the matrix and increasing within
 * its row (sorted, no repeats), and pointers and dims that fit int32 (TensorFlow keeps them as int32). The batch
 * pointers follow from the row pointers; given, they must agree. Cheap checks come before any copy.
 */
export function readCsrParts(
  parts: {
    batchPointers?: unknown;
    rowPointers: unknown;
    colIndices: unknown;
    values: unknown;
    denseShape: unknown;
    dtype?: unknown;
    /** Sort each row's columns and sum repeated ones first (scipy's `sum_duplicates`), rather than refuse them. */
    canonicalize?: boolean;
  },
  name: CsrPartName,
): CsrData {
  checkDType(parts.dtype, name('dtype'));
  const shape = toShape(parts.denseShape, name('dense_shape'));
  if (shape.length !== 2 && shape.length !== 3) {
    throw new InvalidArgumentError(
      `${name('dense_shape')} must have rank 2 or 3 (a matrix or a batch of them), got ${shapeText(shape)}`,
    );
  }
  const [batch, rows, cols] = shape.length === 3 ? shape : [1, ...shape];
  if (batch * (rows + 1) > INT32_MAX || cols > INT32_MAX) {
    throw new InvalidArgumentError(
      `${name('dense_shape')} ${shapeText(shape)} is too large for CSR: its row pointers and columns are int32`,
    );
  }
  const rowList = asList(parts.rowPointers, name('row_pointers'));
  const colList = asList(parts.colIndices, name('col_indices'));
  const valueList = asList(parts.values, name('values'));
  if (rowList.length !== batch * (rows + 1)) {
    throw new InvalidArgumentError(
      `${name('row_pointers')} must hold batch * (rows + 1) = ${batch * (rows + 1)} pointers for dense_shape ${shapeText(shape)}, got ${rowList.length}`,
    );
  }
  if (colList.length !== valueList.length) {
    throw new InvalidArgumentError(
      `${name('col_indices')} has ${colList.length} entries but ${name('values')} has ${valueList.length}`,
    );
  }
  const rowPointers = readInt32s(rowList, name('row_pointers'));
  const batchPointers = new Int32Array(batch + 1);
  for (let b = 0; b < batch; b++) {
    const base = b * (rows + 1);
    if (rowPointers[base] !== 0)
      throw new InvalidArgumentError(
        `${name('row_pointers')}[${base}] = ${rowPointers[base]}: each batch's row pointers start at 0`,
      );
    for (let r = 1; r <= rows; r++) {
      if (rowPointers[base + r] < rowPointers[base + r - 1]) {
        throw new InvalidArgumentError(
          `${name('row_pointers')}[${base + r}] = ${rowPointers[base + r]} is below the pointer before it (${rowPointers[base + r - 1]}): row pointers never decrease`,
        );
      }
    }
    const total = batchPointers[b] + rowPointers[base + rows];
    if (total > valueList.length) {
      throw new InvalidArgumentError(
        `${name('row_pointers')} count ${total} entries by batch ${b}, but ${name('values')} has ${valueList.length}`,
      );
    }
    batchPointers[b + 1] = total;
  }
  if (batchPointers[batch] !== valueList.length) {
    throw new InvalidArgumentError(
      `${name('row_pointers')} count ${batchPointers[batch]} entries, but ${name('values')} has ${valueList.length}`,
    );
  }
  if (parts.batchPointers !== undefined) checkBatchPointers(parts.batchPointers, batchPointers, name);
  let colIndices = readInt32s(colList, name('col_indices'));
  const dtype =
    (parts.dtype as DType | undefined) ?? dtypeOfStorage(valueList) ?? inferDType(valueList, name('values'));
  if (!CSR_DTYPES.includes(dtype)) {
    throw new TypeError(
      `${name('values')}: a CSR matrix of dtype ${dtype} is not allowed; its values are ${CSR_DTYPES.join(' or ')} (as TensorFlow's CSRSparseMatrix)`,
    );
  }
  const read = readValues(valueList, dtype, name('values'));
  let values = read.values as Float32Array | Float64Array;
  if (parts.canonicalize) {
    checkColumnBounds(colIndices, cols, name);
    ({ colIndices, values } = canonicalRows(rowPointers, batchPointers, colIndices, values, rows));
  }
  checkColumns(colIndices, rowPointers, batchPointers, rows, cols, name);
  return { kind: 'csr', batchPointers, rowPointers, colIndices, values, shape, dtype: read.dtype };
}

function checkColumnBounds(cols: Int32Array, ncols: number, name: CsrPartName): void {
  for (let k = 0; k < cols.length; k++)
    if (cols[k] >= ncols)
      throw new InvalidArgumentError(
        `${name('col_indices')}[${k}] = ${cols[k]} is out of bounds: the matrix has ${ncols} columns`,
      );
}

/**
 * Each row's entries sorted by column and repeated columns summed in their order (float32 rounding each sum), as
 * scipy's `sum_duplicates` makes a CSR matrix canonical: the row pointers (and batch pointers) rewritten in place.
 * O(nnz log(longest row)).
 */
function canonicalRows(
  rowPointers: Int32Array,
  batchPointers: Int32Array,
  cols: Int32Array,
  values: Float32Array | Float64Array,
  rows: number,
): { colIndices: Int32Array; values: Float32Array | Float64Array } {
  const outCols = new Int32Array(cols.length);
  const outValues = new (values.constructor as Float64ArrayConstructor)(values.length);
  const add =
    values instanceof Float32Array ? (a: number, b: number) => Math.fround(a + b) : (a: number, b: number) => a + b;
  const given = batchPointers.slice();
  let n = 0;
  for (let b = 0; b + 1 < batchPointers.length; b++) {
    const offset = given[b];
    const base = b * (rows + 1);
    const start = n;
    for (let r = 0; r < rows; r++) {
      const from = offset + rowPointers[base + r];
      const to = offset + rowPointers[base + r + 1];
      rowPointers[base + r] = n - start;
      // A stable sort by column: repeats keep their order, so their values add in it.
      const order = Array.from({ length: to - from }, (_, k) => from + k).sort((x, y) => cols[x] - cols[y]);
      for (let k = 0; k < order.length; k++) {
        const e = order[k];
        if (k > 0 && cols[e] === outCols[n - 1]) outValues[n - 1] = add(outValues[n - 1], values[e]);
        else [outCols[n], outValues[n++]] = [cols[e], values[e]];
      }
    }
    rowPointers[base + rows] = n - start;
    batchPointers[b + 1] = n;
  }
  return { colIndices: outCols.slice(0, n), values: outValues.slice(0, n) };
}

/** Each entry a whole number within int32, copied into an Int32Array. */
function readInt32s(list: ArrayLike<unknown>, what: string): Int32Array {
  const out = new Int32Array(list.length);
  for (let i = 0; i < list.length; i++) {
    // int64 pointers and indices (scipy's, on a large matrix) are taken where they fit.
    const x = typeof list[i] === 'bigint' ? Number(list[i]) : list[i];
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > INT32_MAX) {
      if (typeof x !== 'number') throw new TypeError(`${what}[${i}] must be a whole number, got ${describe(x)}`);
      throw new InvalidArgumentError(`${what}[${i}] = ${describe(list[i])} is not a whole number in [0, 2^31 - 1]`);
    }
    out[i] = x;
  }
  return out;
}

function checkBatchPointers(given: unknown, want: Int32Array, name: CsrPartName): void {
  const list = asList(given, name('batch_pointers'));
  const same = list.length === want.length && want.every((p, i) => list[i] === p);
  if (!same) {
    throw new InvalidArgumentError(
      `${name('batch_pointers')} must be [${want.join(',')}] (where each batch's entries start, from the row pointers), got ${describe(given)}`,
    );
  }
}

/** Every column inside the matrix and increasing within its row. */
function checkColumns(
  cols: Int32Array,
  rowPointers: Int32Array,
  batchPointers: Int32Array,
  rows: number,
  ncols: number,
  name: CsrPartName,
): void {
  for (let b = 0; b + 1 < batchPointers.length; b++) {
    const offset = batchPointers[b];
    for (let r = 0; r < rows; r++) {
      const from = offset + rowPointers[b * (rows + 1) + r];
      const to = offset + rowPointers[b * (rows + 1) + r + 1];
      let prev = -1;
      for (let k = from; k < to; k++) {
        const c = cols[k];
        if (c >= ncols) {
          throw new InvalidArgumentError(
            `${name('col_indices')}[${k}] = ${c} is out of bounds: the matrix has ${ncols} columns (batch ${b}, row ${r})`,
          );
        }
        if (c <= prev) {
          throw new InvalidArgumentError(
            `${name('col_indices')}[${k}] = ${c} is not above the column before it in its row (${prev}; batch ${b}, row ${r}): columns are sorted without repeats (scipy's unsorted or repeated columns: pass { canonicalize: true })`,
          );
        }
        prev = c;
      }
    }
  }
}
