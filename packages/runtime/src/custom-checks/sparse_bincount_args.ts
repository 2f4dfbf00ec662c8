import { indexText, type SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { sameShape, shapeText } from '../shape.js';

/**
 * sparse_bincount, before any counting, in TensorFlow's order (its Python layer, then its kernel): `axis` is 0 or -1
 * and the rank of `values` one it takes (rows to count by, for -1); `weights` and `binary_output` are not both given;
 * `weights` has the dense shape and the indices of `values`; `minlength` and `maxlength` are >= -1; every value is
 * >= 0 (counted or not), and every counted int64 value below 2^53 - 1, so that the output's dim (the largest value + 1)
 * is at most 2^53 - 1, the largest sparse holds here.
 */
export function sparseBincountArgs(op: string, args: Record<string, unknown>): void {
  const values = args.values as SparseData;
  const weights = args.weights as SparseData | null;
  const axis = args.axis as number;
  if (axis !== 0 && axis !== -1)
    throw new InvalidArgumentError(`${op}: axis = ${axis} is not supported: only 0 and -1 are (as in TensorFlow)`);
  if (weights !== null && args.binary_output === true)
    throw new InvalidArgumentError(`${op}: binary_output and weights are mutually exclusive: give only one`);
  if (weights !== null) sameEntries(op, values, weights);
  for (const name of ['minlength', 'maxlength']) {
    const v = args[name] as number | null;
    if (v !== null && v < -1)
      throw new InvalidArgumentError(`${op}: ${name} = ${v} is less than -1 (-1 or null: not given)`);
  }
  const rank = values.shape.length;
  if (axis === -1 && (rank < 1 || rank > 2)) {
    throw new InvalidArgumentError(
      `${op}: values must have rank 1 or 2 to be counted by row (axis -1), got rank ${rank}`,
    );
  }
  if (axis === -1 && rank === 2 && values.shape[0] === 0)
    throw new InvalidArgumentError(`${op}: values has no rows to count by (dense shape ${shapeText(values.shape)})`);
  const maxlength = (args.maxlength as number | null) ?? -1;
  const v = values.values as Int32Array | BigInt64Array;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (x < 0)
      throw new InvalidArgumentError(`${op}: values.values[${i}] = ${x} is negative: the values counted must be >= 0`);
    // The output's last dim is the largest counted value + 1: 2^53 - 1 itself would make a dim of 2^53.
    if (x >= Number.MAX_SAFE_INTEGER && (maxlength < 0 || x < maxlength)) {
      throw new InvalidArgumentError(
        `${op}: values.values[${i}] = ${x} is too large: the output's last dim (the largest value + 1) would be past 2^53 - 1, which sparse does not hold here`,
      );
    }
  }
}

/** The weights of every value: the same dense shape, entries and indices, each error naming the first difference. */
function sameEntries(op: string, values: SparseData, weights: SparseData): void {
  if (!sameShape(weights.shape, values.shape)) {
    throw new InvalidArgumentError(
      `${op}: weights has dense shape ${shapeText(weights.shape)} but values has ${shapeText(values.shape)}; they must have the same dense shape`,
    );
  }
  const n = values.values.length;
  if (weights.values.length !== n)
    throw new InvalidArgumentError(`${op}: weights has ${weights.values.length} entries but values has ${n}`);
  const rank = values.shape.length;
  for (let k = 0; k < n * rank; k++) {
    if (weights.indices[k] !== values.indices[k]) {
      const i = Math.floor(k / rank);
      throw new InvalidArgumentError(
        `${op}: weights.indices[${i}] = ${indexText(weights.indices, i, rank)} differs from values.indices[${i}] = ${indexText(values.indices, i, rank)}; they must have the same indices`,
      );
    }
  }
}
