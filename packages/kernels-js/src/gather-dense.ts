import type { DenseData, DType, Values } from '@sparse/kernel-abi';
import { allocValues, linearOffset, rowMajorStrides } from '@sparse/kernel-abi';

export interface GatherInput {
  /** Row-major [n × rank] index matrix, every index within the shape of `grad`. */
  indices: ArrayLike<number>;
  n: number;
  /** The gradient of the dense result of a scatter (scatterToDense) of these indices. */
  grad: DenseData;
  /** An index may repeat (the scatter's indices were not validated). */
  repeats: boolean;
  /** One value went to every index (a scalar `sparse_values`): its gradient is the sum over them. */
  broadcast?: boolean;
  dtype: DType;
}

/**
 * The gradient of the values of a scatter into a dense tensor, given `grad` of its result: each index's value gets
 * grad at its position (TensorFlow's gather_nd), except that of a repeated index only the last entry reached the
 * result, so the earlier ones get 0. A broadcast value's sum runs in float64 and rounds once. O(n · rank), plus the
 * dense size where positions are marked.
 */
export function gatherFromDense({ indices, n, grad, repeats, broadcast, dtype }: GatherInput): Values {
  const g = grad.data as Float64Array;
  const strides = rowMajorStrides(grad.shape);
  // Walked from the back, the first entry to reach a position is the last one written there.
  const named = repeats || broadcast ? new Uint8Array(g.length) : null;
  const values = allocValues(dtype, broadcast ? 1 : n) as Float64Array;
  let sum = 0;
  for (let i = n - 1; i >= 0; i--) {
    const at = linearOffset(indices, i, strides);
    if (named) {
      if (named[at]) continue;
      named[at] = 1;
    }
    if (broadcast) sum += g[at];
    else values[i] = g[at];
  }
  if (broadcast) values[0] = sum;
  return values;
}

/**
 * The gradient of the default value of a scatter into a dense tensor, given `grad` of its result: the sum of grad
 * over the positions no index wrote (a repeated index counts once), in float64. O(n · rank + dense size).
 */
export function unwrittenSum(indices: ArrayLike<number>, n: number, grad: DenseData): number {
  const g = grad.data as Float64Array;
  const strides = rowMajorStrides(grad.shape);
  const written = new Uint8Array(g.length);
  for (let i = 0; i < n; i++) written[linearOffset(indices, i, strides)] = 1;
  let sum = 0;
  for (let k = 0; k < g.length; k++) if (!written[k]) sum += g[k];
  return sum;
}
