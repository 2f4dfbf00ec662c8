import type { SparseData } from '../generated/kernel-types.js';

/** The sum of the sizes along `ax`; every other dim that of the first input, or the largest with `expand`. */
export function concatShape(inputs: readonly SparseData[], ax: number, expand: boolean): number[] {
  const shape = [...inputs[0].shape];
  shape[ax] = 0;
  for (const s of inputs) {
    s.shape.forEach((d, j) => {
      if (j === ax) shape[j] += d;
      else if (expand && d > shape[j]) shape[j] = d;
    });
  }
  return shape;
}
