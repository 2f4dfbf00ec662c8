import { compareIndexRows, isSortedRows } from '../compare-indices.js';
import { linearOffsets, rowMajorStrides, sizeOf } from '../strides.js';

/**
 * The stable permutation that puts the `n` index rows of `indices` (dense shape `shape`) in canonical row-major
 * order: entry k of the result is the input row that goes to position k; repeated rows keep their input order.
 * O(n log n). Sorts on exact flat offsets while the dense shape has fewer than 2^53 elements, and compares
 * index tuples otherwise, so no offset ever overflows.
 */
export function canonicalOrder(indices: ArrayLike<number>, n: number, shape: readonly number[]): Uint32Array {
  const rank = shape.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (isSortedRows(indices, n, rank)) return order;
  if (sizeOf(shape) <= Number.MAX_SAFE_INTEGER) {
    const keys = linearOffsets(indices, n, rowMajorStrides(shape));
    order.sort((x, y) => keys[x] - keys[y] || x - y);
  } else {
    order.sort((x, y) => compareIndexRows(indices, x, indices, y, rank) || x - y);
  }
  return order;
}
