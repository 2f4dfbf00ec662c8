import type { SparseSoftmaxGradKernel } from '@sparse/kernel-abi';
import { allocValues, rowEnd } from '@sparse/kernel-abi';

/**
 * Per innermost row of the softmax's output y (a run of entries: the runtime has checked the order), the gradient
 * of the input's values (grad - Σ grad · y) · y, as TensorFlow's gradient graph computes it: the products, their
 * row sum in entry order, the difference, the product; float32 rounds each step. One pass, O(nnz · rank).
 */
export const sparseSoftmaxGrad: SparseSoftmaxGradKernel = ({ sp_output, grad }) => {
  const { indices, shape, dtype } = sp_output;
  const y = sp_output.values as Float64Array;
  const g = grad.data as Float64Array;
  const n = y.length;
  const rank = shape.length;
  const round = dtype === 'float32' ? Math.fround : (v: number) => v;
  const out = allocValues(dtype, n) as Float64Array;
  for (let start = 0, end: number; start < n; start = end) {
    end = rowEnd(indices, start, n, rank);
    let sum = 0;
    for (let i = start; i < end; i++) sum = round(sum + round(g[i] * y[i]));
    for (let i = start; i < end; i++) out[i] = round(round(g[i] - sum) * y[i]);
  }
  return { sp_input_grad: { kind: 'dense', data: out, shape: [n], dtype } };
};
