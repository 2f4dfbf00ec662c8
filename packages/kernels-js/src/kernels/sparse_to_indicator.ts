import type { SparseToIndicatorKernel } from '@sparse/kernel-abi';
import { rowMajorStrides, sizeOf } from '@sparse/kernel-abi';

/**
 * A dense bool tensor of shape `sp_input.shape[:-1] + [vocab_size]`, true at `[index[:-1], value]` for every entry
 * and false elsewhere; the last dim of each index is discarded. Repeats simply set true again. O(N + output).
 * The runtime has checked every id to be in [0, vocab_size) and the output to fit in memory.
 */
export const sparseToIndicator: SparseToIndicatorKernel = ({ sp_input, vocab_size }) => {
  const { indices, values, shape } = sp_input;
  const rank = shape.length;
  const n = values.length;
  const outShape = [...shape.slice(0, -1), vocab_size];
  const data = new Uint8Array(sizeOf(outShape));
  const strides = rowMajorStrides(outShape);
  for (let i = 0; i < n; i++) {
    let off = Number(values[i]);
    for (let d = 0, k = i * rank; d < rank - 1; d++, k++) off += indices[k] * strides[d];
    data[off] = 1;
  }
  return { output: { kind: 'dense', data, shape: outShape, dtype: 'bool' } };
};
