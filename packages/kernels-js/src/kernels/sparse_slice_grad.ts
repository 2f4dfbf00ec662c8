import type { SparseSliceGradKernel } from '@sparse/kernel-abi';
import { allocValues, KernelError } from '@sparse/kernel-abi';

/**
 * TensorFlow's SparseSliceGrad: the slice keeps the entries inside the box `start <= index < start + size` in their
 * order, so each of those gets the next value of grad and every other entry 0. Linear in nnz.
 */
export const sparseSliceGrad: SparseSliceGradKernel = ({ sp_input, start, size, grad }) => {
  const { indices, shape, dtype } = sp_input;
  const rank = shape.length;
  const n = sp_input.values.length;
  const g = grad.data as Float64Array;
  const out = allocValues(dtype, n) as Float64Array;
  let m = 0;
  for (let i = 0; i < n; i++) {
    let inside = true;
    for (let d = 0, p = i * rank; d < rank && inside; d++, p++)
      inside = indices[p] >= start[d] && indices[p] - start[d] < size[d];
    if (!inside) continue;
    if (m >= g.length)
      throw new KernelError('GRAD_SIZE', ` (grad has ${g.length} values; the output has more entries)`);
    out[i] = g[m++];
  }
  if (m !== g.length) throw new KernelError('GRAD_SIZE', ` (grad has ${g.length} values for ${m} output entries)`);
  return { sp_input_grad: { kind: 'dense', data: out, shape: [n], dtype } };
};
