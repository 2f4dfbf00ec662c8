import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { shapeText } from '../shape.js';

/** `to_retain` is a vector with one flag per stored value of `sp_input` (TensorFlow refuses any other shape). */
export function sparseRetainMask(op: string, args: Record<string, unknown>): void {
  const sp = args.sp_input as SparseData;
  const mask = args.to_retain as DenseData;
  if (mask.shape.length !== 1) {
    throw new InvalidArgumentError(
      `${op}: to_retain must be a vector (rank 1) of bools, got shape ${shapeText(mask.shape)}`,
    );
  }
  const n = sp.values.length;
  if (mask.shape[0] !== n) {
    throw new InvalidArgumentError(
      `${op}: to_retain has ${mask.shape[0]} ${mask.shape[0] === 1 ? 'entry' : 'entries'} but sp_input has ${n} ${n === 1 ? 'value' : 'values'}; it needs one flag per value`,
    );
  }
}
