import type { SparseFillEmptyRowsKernel } from '@sparse/kernel-abi';
import { allocValues, copyRow, copyValue, type Element, storageValue } from '@sparse/kernel-abi';

/**
 * Every row (index along dim 0) of `sp_input` that holds no entry gets one, `default_value` at `[row, 0, ..., 0]`.
 * The output is grouped by row in increasing row order; within a row the entries keep their input order (a
 * counting sort by row, as TensorFlow's kernel does). O(N + rows). The runtime has checked that the rank is at
 * least 1, that an empty row can be filled (no dim after the first is 0) and that the rows fit in memory.
 */
export const sparseFillEmptyRows: SparseFillEmptyRowsKernel = ({ sp_input, default_value }) => {
  const { indices, values, shape, dtype } = sp_input;
  const rank = shape.length;
  const n = values.length;
  const rows = shape[0];
  // start[r]: where row r begins in the output; every empty row takes one place.
  const start = new Uint32Array(rows);
  for (let i = 0; i < n; i++) start[indices[i * rank]]++;
  const empty = new Uint8Array(rows);
  let total = 0;
  for (let r = 0; r < rows; r++) {
    const c = start[r];
    start[r] = total;
    if (c === 0) {
      empty[r] = 1;
      total++;
    } else {
      total += c;
    }
  }
  const outIndices = new Float64Array(total * rank);
  const outValues = allocValues(dtype, total);
  for (let i = 0; i < n; i++) {
    const k = start[indices[i * rank]]++;
    copyRow(outIndices, k, indices, i, rank);
    copyValue(outValues, k, values, i);
  }
  const fill = storageValue(dtype, default_value);
  for (let r = 0; r < rows; r++) {
    if (!empty[r]) continue;
    const k = start[r];
    outIndices[k * rank] = r; // the other dims stay 0
    (outValues as unknown as Element[])[k] = fill;
  }
  return {
    output: { kind: 'sparse', indices: outIndices, values: outValues, shape: [...shape], dtype },
    empty_row_indicator: { kind: 'dense', data: empty, shape: [rows], dtype: 'bool' },
  };
};
