import type { DenseData, DType, Scalar, Values } from '@sparse/kernel-abi';
import { copyValue, filledValues } from '@sparse/kernel-abi';
import { linearOffset, rowMajorStrides, sizeOf } from '@sparse/kernel-abi';

export interface ScatterInput {
  /** Row-major [n × shape.length] index matrix, every index within `shape`. */
  indices: ArrayLike<number>;
  n: number;
  /** The values to place: one per index, or (with `broadcast`) a single value for every index. */
  values: Values;
  broadcast?: boolean;
  shape: readonly number[];
  dtype: DType;
  defaultValue: Scalar;
}

/**
 * The dense tensor of shape `shape` holding `defaultValue` everywhere except at the given indices, which take
 * their values. Indices are written in order, so for a repeated index the last value wins.
 */
export function scatterToDense(s: ScatterInput): DenseData {
  const data = filledValues(s.dtype, sizeOf(s.shape), s.defaultValue);
  const strides = rowMajorStrides(s.shape);
  for (let i = 0; i < s.n; i++) copyValue(data, linearOffset(s.indices, i, strides), s.values, s.broadcast ? 0 : i);
  return { kind: 'dense', data, shape: [...s.shape], dtype: s.dtype };
}
