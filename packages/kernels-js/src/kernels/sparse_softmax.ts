import type { SparseSoftmaxKernel } from '@sparse/kernel-abi';
import { rowEnd } from '@sparse/kernel-abi';

/**
 * Softmax over the stored values of each innermost row (the entries that agree on every dim but the last),
 * implicit zeros taking no part: exp(x - max) / sum, the row max subtracted first so large values stay finite.
 * The indices are in canonical order (checked by the runtime), so a row is a run of consecutive entries: one
 * pass, O(nnz · rank), without a linear index (shapes beyond 2^53 elements are fine). Like TensorFlow's kernel
 * it multiplies by the inverse of the sum; float32 rounds every step to float32.
 */
export const sparseSoftmax: SparseSoftmaxKernel = ({ sp_input }) => {
  const { indices, values, shape, dtype } = sp_input;
  const rank = shape.length;
  const out =
    dtype === 'float32'
      ? softmaxFloat32(indices, values as Float32Array, rank)
      : softmaxFloat64(indices, values as Float64Array, rank);
  return { output: { kind: 'sparse', indices: indices.slice(), values: out, shape: [...shape], dtype } };
};

// Two copies of one loop, so each stays monomorphic: float64 as is, float32 rounding every step.
// Math.max propagates nan: a row holding nan is nan throughout.

function softmaxFloat64(indices: Float64Array, src: Float64Array, rank: number): Float64Array {
  const n = src.length;
  const out = new Float64Array(n);
  for (let start = 0, end: number; start < n; start = end) {
    end = rowEnd(indices, start, n, rank);
    let max = src[start];
    for (let i = start + 1; i < end; i++) max = Math.max(max, src[i]);
    let sum = 0;
    for (let i = start; i < end; i++) {
      const e = Math.exp(src[i] - max);
      out[i] = e;
      sum += e;
    }
    const inv = 1 / sum;
    for (let i = start; i < end; i++) out[i] *= inv;
  }
  return out;
}

function softmaxFloat32(indices: Float64Array, src: Float32Array, rank: number): Float32Array {
  const n = src.length;
  const out = new Float32Array(n);
  const fround = Math.fround;
  for (let start = 0, end: number; start < n; start = end) {
    end = rowEnd(indices, start, n, rank);
    let max = src[start];
    for (let i = start + 1; i < end; i++) max = Math.max(max, src[i]);
    let sum = 0;
    for (let i = start; i < end; i++) {
      const e = fround(Math.exp(fround(src[i] - max)));
      out[i] = e;
      sum = fround(sum + e);
    }
    const inv = fround(1 / sum);
    // Storing into the Float32Array rounds the product.
    for (let i = start; i < end; i++) out[i] *= inv;
  }
  return out;
}
