import type { SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';

/** sparse_expand_dims: `axis` in [-rank-1, rank] for `sp_input` of rank `rank` (a position in the result's dims). */
export function sparseExpandDimsAxis(op: string, args: Record<string, unknown>): void {
  const rank = (args.sp_input as SparseData).shape.length;
  const axis = args.axis as number;
  if (!(axis >= -rank - 1 && axis <= rank)) {
    throw new InvalidArgumentError(
      `${op}: axis = ${axis} is out of range for sp_input of rank ${rank}: need ${-rank - 1} <= axis <= ${rank}`,
    );
  }
}
