import type { SparseData } from '@sparse/kernel-abi';
import { sparse } from '@sparse/test-kit/plain-data';
import type { Rng } from '@sparse/test-kit/seeded-random';

export { rng, type Rng } from '@sparse/test-kit/seeded-random';

/** `count` distinct columns of 0 .. width-1, ascending (a partial Fisher–Yates shuffle). */
function pickColumns(r: Rng, width: number, count: number): number[] {
  const all = Array.from({ length: width }, (_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = i + r.int(width - i);
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, count).sort((a, b) => a - b);
}

/**
 * A float32 sparse tensor of shape [batches, rowLengths.length, width] in canonical order whose innermost rows (in
 * every batch) store rowLengths[i] values (0 for an empty row) drawn by `value`.
 */
export function rowsTensor(
  r: Rng,
  batches: number,
  rowLengths: number[],
  width: number,
  value: () => number,
): SparseData {
  const indices: number[][] = [];
  const values: number[] = [];
  for (let b = 0; b < batches; b++) {
    rowLengths.forEach((len, row) => {
      for (const c of pickColumns(r, width, len)) {
        indices.push([b, row, c]);
        values.push(value());
      }
    });
  }
  return sparse(indices, Float32Array.from(values), [batches, rowLengths.length, width], 'float32');
}

/** Multiples of 1/4 in [-2, 2]: their products and sums (of a few thousand) are exact in float32. */
export const quarter = (r: Rng) => () => (r.int(17) - 8) / 4;
