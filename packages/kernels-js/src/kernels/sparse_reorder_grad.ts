import type { SparseReorderGradKernel } from '@sparse/kernel-abi';
import { allocValues, canonicalOrder } from '@sparse/kernel-abi';

/**
 * TensorFlow's gradient of SparseReorder: each input entry gets the gradient of the output entry it became, found by
 * the forward op's own stable sort (grad gathered by the inverse permutation). O(N log N).
 */
export const sparseReorderGrad: SparseReorderGradKernel = ({ sp_input, grad }) => {
  const { indices, shape, dtype } = sp_input;
  const n = sp_input.values.length;
  const order = canonicalOrder(indices, n, shape);
  const g = grad.data as Float64Array;
  const out = allocValues(dtype, n) as Float64Array;
  for (let k = 0; k < n; k++) out[order[k]] = g[k];
  return { sp_input_grad: { kind: 'dense', data: out, shape: [n], dtype } };
};
