import type { FromDenseKernel } from '@sparse/kernel-abi';
import { isZeroAt, takeValues } from '@sparse/kernel-abi';

/** Every element of `tensor` that is not the dtype's zero, in row-major order (NaN is kept; 0 and -0 are not). */
export const fromDense: FromDenseKernel = ({ tensor }) => {
  const { data, shape, dtype } = tensor;
  const rank = shape.length;
  const size = data.length;
  let nnz = 0;
  for (let f = 0; f < size; f++) if (!isZeroAt(data, f)) nnz++;

  const indices = new Float64Array(nnz * rank);
  const positions = new Float64Array(nnz);
  // An odometer over the dense index: amortized O(1) a step, so the walk is linear in the dense size.
  const index = new Array<number>(rank).fill(0);
  for (let f = 0, k = 0; f < size; f++) {
    if (!isZeroAt(data, f)) {
      positions[k] = f;
      for (let d = 0; d < rank; d++) indices[k * rank + d] = index[d];
      k++;
    }
    for (let d = rank - 1; d >= 0 && ++index[d] === shape[d]; d--) index[d] = 0;
  }
  return { output: { kind: 'sparse', indices, values: takeValues(data, dtype, positions), shape: [...shape], dtype } };
};
