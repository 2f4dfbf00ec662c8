import type { SparseRetainGradKernel } from '@sparse/kernel-abi';
import { allocValues, KernelError } from '@sparse/kernel-abi';

/**
 * The gradient of tf.sparse.retain, a gather of the kept values: each kept entry gets the next value of grad (the
 * output keeps their order), every dropped one 0. O(N).
 */
export const sparseRetainGrad: SparseRetainGradKernel = ({ sp_input, to_retain, grad }) => {
  const { dtype } = sp_input;
  const n = sp_input.values.length;
  const keep = to_retain.data as Uint8Array;
  const g = grad.data as Float64Array;
  let m = 0;
  for (let i = 0; i < n; i++) if (keep[i]) m++;
  if (m !== g.length) throw new KernelError('GRAD_SIZE', ` (grad has ${g.length} values for ${m} output entries)`);
  const out = allocValues(dtype, n) as Float64Array;
  for (let i = 0, k = 0; i < n; i++) if (keep[i]) out[i] = g[k++];
  return { sp_input_grad: { kind: 'dense', data: out, shape: [n], dtype } };
};
