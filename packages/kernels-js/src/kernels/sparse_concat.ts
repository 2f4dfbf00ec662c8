import type { SparseConcatKernel } from '@sparse/kernel-abi';
import { allocValues, canonicalOrder, concatShape, copyValue, takeRows, takeValues } from '@sparse/kernel-abi';

/**
 * The inputs concatenated along `axis` (checked by the runtime: a non-empty list, one rank, an axis in range,
 * shapes that agree off the axis unless `expand_nonconcat_dim`). Each input's entries move by the sum of the
 * sizes before it along the axis; the result is then put in canonical row-major order with a stable sort,
 * O(M log M) for M entries in all (linear when the result is already ordered, as it is along axis 0), and never
 * through a linear offset that could overflow. As TensorFlow's `tf.sparse.concat`, a single input comes back
 * as it is.
 */
export const sparseConcat: SparseConcatKernel = ({ axis, sp_inputs, expand_nonconcat_dim }) => {
  const first = sp_inputs[0];
  const { dtype } = first;
  const rank = first.shape.length;
  if (sp_inputs.length === 1) {
    return {
      output: {
        kind: 'sparse',
        indices: first.indices.slice(),
        values: first.values.slice(),
        shape: [...first.shape],
        dtype,
      },
    };
  }
  const ax = axis < 0 ? axis + rank : axis;
  const shape = concatShape(sp_inputs, ax, expand_nonconcat_dim);
  let total = 0;
  for (const s of sp_inputs) total += s.values.length;
  const indices = new Float64Array(total * rank);
  const values = allocValues(dtype, total);
  let k = 0;
  let offset = 0;
  for (const s of sp_inputs) {
    const n = s.values.length;
    indices.set(s.indices.subarray(0, n * rank), k * rank);
    for (let i = 0; i < n; i++) {
      indices[(k + i) * rank + ax] += offset;
      copyValue(values, k + i, s.values, i);
    }
    k += n;
    offset += s.shape[ax];
  }
  const order = canonicalOrder(indices, total, shape);
  return {
    output: {
      kind: 'sparse',
      indices: takeRows(indices, rank, order),
      values: takeValues(values, dtype, order),
      shape,
      dtype,
    },
  };
};
