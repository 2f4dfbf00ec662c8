import type { DenseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';

/**
 * The sparse segment reductions (sum, mean, sqrt_n): `num_segments`, where given, is >= 0; `indices` and
 * `segment_ids` (both 1-D, checked before) have the same length; the segment ids are >= 0, non-decreasing, and below
 * `num_segments` where it is given (TensorFlow's CPU kernels take sorted ids only, with or without it); every index
 * names a row of `data`. Each error names the argument and the position. The output's size is refused after this,
 * before the kernel allocates anything, by its shape rule (`segments`).
 */
export function sparseSegmentArgs(op: string, args: Record<string, unknown>): void {
  const data = args.data as DenseData;
  const indices = (args.indices as DenseData).data as ArrayLike<number | bigint>;
  const ids = (args.segment_ids as DenseData).data as ArrayLike<number | bigint>;
  const numSegments = args.num_segments as number | null;
  if (numSegments !== null && numSegments < 0)
    throw new InvalidArgumentError(`${op}: num_segments = ${numSegments} is negative: it must be >= 0`);
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
    if (numSegments !== null && s >= numSegments) {
      throw new InvalidArgumentError(
        `${op}: segment_ids[${i}] = ${s} is out of range [0, ${numSegments}): segment ids must be < num_segments`,
      );
    }
  }
  // As TensorFlow, the output's size before the indices (its kernel checks them as it reads them).
  if (n > 0 && numSegments === null && BigInt(ids[n - 1]) >= BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new InvalidArgumentError(
      `${op}: segment_ids[${n - 1}] = ${ids[n - 1]} is too large: the output would have more than 2^53 rows`,
    );
  }
  const rows = data.shape[0];
  for (let i = 0; i < n; i++) {
    const x = indices[i];
    if (!(x >= 0 && x < rows))
      throw new InvalidArgumentError(`${op}: indices[${i}] = ${x} is out of range [0, ${rows}) of the rows of data`);
  }
}
