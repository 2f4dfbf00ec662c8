import type { SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { shapeText } from '../shape.js';

/** A given `perm` is a permutation of 0..rank-1 of `sp_input` (null: the dims reversed, nothing to check). */
export function sparseTransposePerm(op: string, args: Record<string, unknown>): void {
  const perm = args.perm as number[] | null;
  if (perm === null) return;
  const rank = (args.sp_input as SparseData).shape.length;
  const bad = (why: string) =>
    new InvalidArgumentError(
      `${op}: perm = ${shapeText(perm)} is not a permutation of the ${rank} dims of sp_input (0..${rank - 1}): ${why}`,
    );
  if (perm.length !== rank)
    throw bad(`it has ${perm.length} ${perm.length === 1 ? 'entry' : 'entries'}, sp_input has rank ${rank}`);
  const seen = new Uint8Array(rank);
  perm.forEach((p, i) => {
    if (!(p >= 0 && p < rank)) throw bad(`perm[${i}] = ${p} is out of range [0, ${rank})`);
    if (seen[p]) throw bad(`perm[${i}] = ${p} is repeated`);
    seen[p] = 1;
  });
}
