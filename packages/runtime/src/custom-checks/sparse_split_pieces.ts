import type { SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';

/** The most SparseTensors one sparse_split makes: beyond it the list alone would exhaust memory. */
const MAX_SPLIT_PIECES = 2 ** 20;

/**
 * sparse_split: `sp_input` of rank >= 1, `axis` in [-rank, rank), and 1 <= num_split <= shape[axis], as
 * TensorFlow's SparseSplit requires (so no piece is empty along the axis); num_split also at most
 * MAX_SPLIT_PIECES.
 */
export function sparseSplitPieces(op: string, args: Record<string, unknown>): void {
  const shape = (args.sp_input as SparseData).shape;
  const axis = args.axis as number;
  const numSplit = args.num_split as number;
  const rank = shape.length;
  if (rank === 0) throw new InvalidArgumentError(`${op}: sp_input has rank 0; a SparseTensor to split needs rank >= 1`);
  if (!(axis >= -rank && axis < rank)) {
    throw new InvalidArgumentError(
      `${op}: axis = ${axis} is out of range for sp_input of rank ${rank}: need ${-rank} <= axis < ${rank}`,
    );
  }
  const ax = axis < 0 ? axis + rank : axis;
  if (!(numSplit >= 1 && numSplit <= shape[ax])) {
    throw new InvalidArgumentError(
      `${op}: num_split = ${numSplit} must be between 1 and ${shape[ax]}, the size of dim ${ax} of sp_input (the axis to split)`,
    );
  }
  if (numSplit > MAX_SPLIT_PIECES) {
    throw new InvalidArgumentError(
      `${op}: num_split = ${numSplit} would make more than ${MAX_SPLIT_PIECES} SparseTensors`,
    );
  }
}
