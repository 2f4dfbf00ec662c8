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

export type TensorView = SparseView | DenseView;

/** One output: a tensor, or a list of SparseTensors (sparse_split). */
export type OutputView = TensorView | TensorView[];
