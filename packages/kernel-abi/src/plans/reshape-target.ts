import { exactSizeOf } from '../strides.js';

/**
 * The dense shape a reshape target names: `target` with its one -1 (if any) replaced by the size that keeps the
 * element count of `from`. The runtime has checked that the target is valid (at most one -1, no other negative,
 * the counts agree), so this only fills the -1 in. Counts are BigInt: exact for any number of elements.
 */
export function resolveReshapeTarget(from: readonly number[], target: readonly number[]): number[] {
  const unknown = target.indexOf(-1);
  if (unknown < 0) return [...target];
  const known = exactSizeOf(target.filter((_, i) => i !== unknown));
  const out = [...target];
  out[unknown] = Number(exactSizeOf(from) / known);
  return out;
}
