import type { DType, SparseBincountKernel } from '@sparse/kernel-abi';
import { allocIndices, allocValues, bincountPlan, sameKey } from '@sparse/kernel-abi';

/**
 * Counts each value per batch row (axis -1 over a rank-2 input) or overall: the counted entries in canonical order
 * of their keys (bincountPlan), then each run of one key summed into one output entry in that order (so float32 weight sums round as TensorFlow's, entry by entry).
 * The runtime has checked the axis, the rank, the weights' indices and every value (>= 0, counted ones at most
 * 2^53 - 1). O(n log n) in the stored values.
 */
export const sparseBincount: SparseBincountKernel = ({
  values,
  weights,
  axis,
  minlength,
  maxlength,
  binary_output,
}) => {
  const { counted, shape, keys, order } = bincountPlan(values, axis, minlength, maxlength);
  const rank = shape.length;
  const m = counted.length;
  const dtype = weights?.dtype ?? values.dtype;
  // Each run of one key is one output entry.
  let runs = 0;
  for (let k = 0; k < m; k++) if (k === 0 || !sameKey(keys, order[k - 1], order[k], rank)) runs++;
  const indices = allocIndices(runs * rank, false);
  const out = allocValues(dtype, runs);
  const store = out as unknown as (number | bigint)[];
  const { zero, one, add } = arithmetic(dtype);
  let e = -1;
  for (let k = 0; k < m; k++) {
    const j = order[k];
    const w = weights ? (weights.values[counted[j]] as number | bigint) : one;
    if (k === 0 || !sameKey(keys, order[k - 1], j, rank)) {
      e++;
      for (let d = 0; d < rank; d++) indices[e * rank + d] = keys[j * rank + d];
      // Each count starts at zero, as TensorFlow's map default-constructs it (0 + -0.0 is 0).
      store[e] = binary_output ? one : add(zero, w);
    } else if (!binary_output) {
      store[e] = add(store[e], w);
    }
  }
  return { output: { kind: 'sparse', indices, values: out, shape, dtype } };
};

/** 0, 1 and the sum of two values in the dtype: float32 rounds, int32 and int64 wrap. */
function arithmetic(dtype: DType): {
  zero: number | bigint;
  one: number | bigint;
  add: (a: number | bigint, b: number | bigint) => number | bigint;
} {
  switch (dtype) {
    case 'int64':
      return { zero: 0n, one: 1n, add: (a, b) => BigInt.asIntN(64, (a as bigint) + (b as bigint)) };
    case 'int32':
      return { zero: 0, one: 1, add: (a, b) => ((a as number) + (b as number)) | 0 };
    case 'float32':
      return { zero: 0, one: 1, add: (a, b) => Math.fround((a as number) + (b as number)) };
    default:
      return { zero: 0, one: 1, add: (a, b) => (a as number) + (b as number) };
  }
}
