import type { DenseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';

/**
 * The gradients of the sparse segment reductions (TensorFlow's SparseSegment{Sum,Mean,SqrtN}Grad): `output_dim0`
 * is >= 0; `indices` and `segment_ids` (both 1-D, checked before) have the same length; every segment id names a
 * row of `grad` and every index a row of the output, `[0, output_dim0)`. Each error names the argument and the
 * position, as TensorFlow's kernel does.
 */
export function sparseSegmentGradArgs(op: string, args: Record<string, unknown>): void {
  const rows = (args.grad as DenseData).shape[0];
  const indices = (args.indices as DenseData).data as ArrayLike<number | bigint>;
  const ids = (args.segment_ids as DenseData).data as ArrayLike<number | bigint>;
  const dim0 = args.output_dim0 as number;
  if (dim0 < 0) throw new InvalidArgumentError(`${op}: output_dim0 = ${dim0} is negative: it must be >= 0`);
  const n = indices.length;
  if (ids.length !== n)
    throw new InvalidArgumentError(
      `${op}: segment_ids has ${ids.length} elements but indices has ${n}; they must have the same size`,
    );
  for (let i = 0; i < n; i++) {
    const s = ids[i];
    if (!(s >= 0 && s < rows))
      throw new InvalidArgumentError(
        `${op}: segment_ids[${i}] = ${s} is out of range [0, ${rows}) of the rows of grad`,
      );
    const x = indices[i];
    if (!(x >= 0 && x < dim0))
      throw new InvalidArgumentError(`${op}: indices[${i}] = ${x} is out of range [0, ${dim0}) of output_dim0`);
  }
}
