/**
 * A plain structural view of a tensor, the common ground the comparator works on: expected values from a case
 * and results from a runtime are both turned into views, so comparing needs no runtime classes.
 * Values are normalized by dtype: float32/float64/int32 as numbers, int64 as bigints, bool as booleans.
 */
export interface SparseView {
  kind: 'sparse';
  indices: number[][];
  values: unknown[];
  denseShape: number[];
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
