import type { SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';

/** sparse_slice: `start` and `size` each hold one whole number >= 0 per dim of `sp_input` (TensorFlow's SparseSlice). */
export function sparseSliceBox(op: string, args: Record<string, unknown>): void {
  const rank = (args.sp_input as SparseData).shape.length;
  for (const name of ['start', 'size'] as const) {
    const v = args[name] as number[];
    if (v.length !== rank) {
      throw new InvalidArgumentError(
        `${op}: ${name} has ${v.length} entries but sp_input has rank ${rank}; ${name} needs one entry per dim`,
      );
    }
    v.forEach((x, d) => {
      if (x < 0) throw new InvalidArgumentError(`${op}: ${name}[${d}] = ${x} is negative; need ${name}[${d}] >= 0`);
    });
  }
}
