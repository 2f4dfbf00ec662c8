import type { SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { shapeText } from '../shape.js';

/**
 * sparse_concat: at least one input; `axis` in [-rank, rank) of the first input; every input of that rank; without
 * `expand_nonconcat_dim`, every dense shape equal to the first off the axis (TensorFlow's "Input shapes must
 * match"); and the output's size along the axis, the sum of the inputs', a whole number below 2^53.
 */
export function sparseConcatInputs(op: string, args: Record<string, unknown>): void {
  const inputs = args.sp_inputs as SparseData[];
  const axis = args.axis as number;
  const expand = args.expand_nonconcat_dim as boolean;
  if (inputs.length === 0)
    throw new InvalidArgumentError(`${op}: sp_inputs is an empty list; give at least one SparseTensor`);
  const first = inputs[0].shape;
  const rank = first.length;
  if (!(axis >= -rank && axis < rank)) {
    throw new InvalidArgumentError(
      `${op}: axis = ${axis} is out of range for inputs of rank ${rank}: need ${-rank} <= axis < ${rank}`,
    );
  }
  const ax = axis < 0 ? axis + rank : axis;
  let along = 0;
  inputs.forEach((s, i) => {
    if (s.shape.length !== rank) {
      throw new InvalidArgumentError(
        `${op}: sp_inputs[${i}] has rank ${s.shape.length} but sp_inputs[0] has rank ${rank}; all inputs must have the same rank`,
      );
    }
    if (!expand) {
      const j = s.shape.findIndex((d, k) => k !== ax && d !== first[k]);
      if (j >= 0) {
        throw new InvalidArgumentError(
          `${op}: input shapes must match except along axis ${ax}: sp_inputs[${i}] has dense shape ${shapeText(
            s.shape,
          )} but sp_inputs[0] has ${shapeText(first)} (dim ${j}: ${s.shape[j]} vs ${
            first[j]
          }); expand_nonconcat_dim = true takes the largest size instead`,
        );
      }
    }
    along += s.shape[ax];
  });
  if (inputs.length > 1 && !Number.isSafeInteger(along)) {
    throw new InvalidArgumentError(
      `${op}: the output's size along axis ${ax} would be ${along}, more than the largest dim, 2^53 - 1`,
    );
  }
}
