import { REASONS } from '../delegation.js';

/**
 * The `n` × `rank` index matrix as u32 words, as the GPU moves them, or why the call runs on the JS kernels
 * instead: a matrix of another length, an index that is not a whole number >= 0 or is -0 (the JS kernels keep a
 * -0 that a u32 cannot), all unchecked; or one past 2^32 - 1 (wideIndex). O(n · rank).
 */
export function u32Indices(indices: Float64Array, n: number, rank: number): Uint32Array | string {
  if (indices.length !== n * rank) return REASONS.unchecked;
  const out = new Uint32Array(n * rank);
  for (let k = 0; k < out.length; k++) {
    const x = indices[k];
    if (!Number.isInteger(x) || x < 0 || (x === 0 && 1 / x < 0)) return REASONS.unchecked;
    if (x >= 2 ** 32) return REASONS.wideIndex;
    out[k] = x;
  }
  return out;
}
