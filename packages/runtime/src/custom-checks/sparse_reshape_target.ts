import { exactSizeOf, type SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { shapeText } from '../shape.js';

/**
 * sparse_reshape, as TensorFlow's SparseReshape: every entry of `shape` a dim (>= 0) except at most one -1; a -1
 * is inferred only when the other dims hold a non-zero number of elements that divides the input's; and the
 * element counts agree. Counts are BigInt, exact for any shape (dims may be bigints: see wide-call.ts).
 */
export function sparseReshapeTarget(op: string, args: Record<string, unknown>): void {
  const from = (args.sp_input as SparseData).shape;
  const target = args.shape as number[];
  let unknown = -1;
  let known = 1n;
  target.forEach((d, i) => {
    if (d === -1) {
      if (unknown >= 0) {
        throw new InvalidArgumentError(
          `${op}: shape[${unknown}] and shape[${i}] are both -1; at most one dim of shape can be -1`,
        );
      }
      unknown = i;
    } else if (d < 0) {
      throw new InvalidArgumentError(
        `${op}: shape[${i}] = ${d} is not a dim: need a whole number >= 0, or -1 for the one dim to infer`,
      );
    } else known *= BigInt(d);
  });
  const total = exactSizeOf(from);
  const input = `sp_input (dense shape ${shapeText(from)})`;
  if (unknown >= 0) {
    if (known === 0n) {
      throw new InvalidArgumentError(
        `${op}: cannot infer the -1 of shape ${shapeText(target)}: the other dims hold 0 elements, so any size would do`,
      );
    }
    if (total % known !== 0n) {
      throw new InvalidArgumentError(
        `${op}: ${input} has ${total} dense values, but the requested shape ${shapeText(target)} needs a multiple of ${known}`,
      );
    }
    return;
  }
  if (known !== total) {
    throw new InvalidArgumentError(
      `${op}: ${input} has ${total} dense values, but the requested shape ${shapeText(target)} has ${known}`,
    );
  }
}
