/**
 * A plain structural view of a tensor: what an expected output of a case means once read, and the common ground a
 * comparator works on (results from a runtime can be turned into views too, so comparing needs no runtime classes).
 * Values are normalized by dtype: float32/float64/int32 as numbers, int64 as bigints, bool as booleans. Dims and
 * indices are int64 too, normalized as `int64Entry` does: numbers up to 2^53 - 1, bigints past it.
 */
export interface SparseView {
  kind: 'sparse';
  indices: (number | bigint)[][];
  values: unknown[];
  denseShape: (number | bigint)[];
  dtype: string;
}

export interface DenseView {
  kind: 'dense';
  /** Row-major. */
  data: unknown[];
  shape: number[];
  dtype: string;
}

/**
 * A CSR matrix (rank 2) or a batch of them (rank 3) by its parts, as TensorFlow's CSRSparseMatrix holds them: each
 * batch's row pointers (from 0), the column indices and values of every batch one after another, and where each
 * batch's entries start (`batchPointers`, derived when a case leaves it out).
 */
export interface CsrView {
  kind: 'csr';
  batchPointers: number[];
  rowPointers: number[];
  colIndices: number[];
  values: unknown[];
  denseShape: number[];
  dtype: string;
}

export type TensorView = SparseView | DenseView | CsrView;

/** One output: a tensor, or a list of SparseTensors (sparse_split). */
export type OutputView = TensorView | TensorView[];
