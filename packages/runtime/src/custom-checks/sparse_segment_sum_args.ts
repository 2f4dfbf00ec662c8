import type { DenseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { assertAllocatable } from '../shape.js';

/**
 * sparse_segment_sum: `indices` and `segment_ids` (both 1-D, checked before) have the same length; the segment ids
 * are >= 0 and non-decreasing; every index names a row of `data`; and the output, [last segment id + 1,
 * ...data.shape[1:]], can be allocated. Each error names the argument and the position; the output's size is
 * refused before the kernel allocates anything.
 */
export function sparseSegmentSumArgs(op: string, args: Record<string, unknown>): void {
  const data = args.data as DenseData;
  const indices = (args.indices as DenseData).data as ArrayLike<number | bigint>;
  const ids = (args.segment_ids as DenseData).data as ArrayLike<number | bigint>;
  const n = indices.length;
  if (ids.length !== n) {
    throw new InvalidArgumentError(
      `${op}: segment_ids has ${ids.length} elements but indices has ${n}; they must have the same size`,
    );
  }
  for (let i = 0; i < n; i++) {
    const s = ids[i];
    if (s < 0) throw new InvalidArgumentError(`${op}: segment_ids[${i}] = ${s} is negative: segment ids must be >= 0`);
    if (i > 0 && s < ids[i - 1]) {
      throw new InvalidArgumentError(
        `${op}: segment_ids[${i}] = ${s} is less than segment_ids[${i - 1}] = ${ids[i - 1]}: segment ids must be sorted (non-decreasing)`,
      );
    }
  }
  const rows = data.shape[0];
  for (let i = 0; i < n; i++) {
    const x = indices[i];
    if (!(x >= 0 && x < rows))
      throw new InvalidArgumentError(`${op}: indices[${i}] = ${x} is out of range [0, ${rows}) of the rows of data`);
  }
  if (n === 0) return;
  const last = ids[n - 1];
  if (BigInt(last) >= BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new InvalidArgumentError(
      `${op}: segment_ids[${n - 1}] = ${last} is too large: the output would have more than 2^53 rows`,
    );
  }
  assertAllocatable([Number(last) + 1, ...data.shape.slice(1)], `${op}: output`);
}
