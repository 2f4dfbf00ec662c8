import type { SparseFillEmptyRowsGradKernel } from '@sparse/kernel-abi';
import { allocValues, KernelError } from '@sparse/kernel-abi';

/**
 * TensorFlow's SparseFillEmptyRowsGrad for the stored values: each input entry gets the gradient of the output entry
 * it became. Where that is follows the forward op's counting sort by row (an empty row takes one place), so nothing
 * is kept between the two. `default_value` gets the sum of the gradients of the entries filled in. O(N + rows).
 */
export const sparseFillEmptyRowsGrad: SparseFillEmptyRowsGradKernel = ({ sp_input, grad }) => {
  const { indices, shape, dtype } = sp_input;
  const rank = shape.length;
  const n = sp_input.values.length;
  const rows = shape[0];
  const g = grad.data as Float64Array;
  const start = new Float64Array(rows);
  for (let i = 0; i < n; i++) start[indices[i * rank]]++;
  // default_value: the sum of the gradients of the entries filled in (one per empty row), in float64, rounded once.
  let filled = 0;
  let total = 0;
  for (let r = 0; r < rows; r++) {
    const c = start[r];
    start[r] = total;
    if (c === 0 && total < g.length) filled += g[total];
    total += c === 0 ? 1 : c;
  }
  if (total !== g.length)
    throw new KernelError('GRAD_SIZE', ` (grad has ${g.length} values for ${total} output entries)`);
  const out = allocValues(dtype, n) as Float64Array;
  for (let i = 0; i < n; i++) out[i] = g[start[indices[i * rank]]++];
  const dv = allocValues(dtype, 1) as Float64Array;
  dv[0] = filled;
  return {
    sp_input_grad: { kind: 'dense', data: out, shape: [n], dtype },
    default_value_grad: { kind: 'dense', data: dv, shape: [], dtype },
  };
};
