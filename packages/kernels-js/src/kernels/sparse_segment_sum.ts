import type { SparseSegmentSumKernel } from '@sparse/kernel-abi';
import { sizeOf } from '@sparse/kernel-abi';
import { allocValues } from '@sparse/kernel-abi';

/**
 * output[s] = the sum of data[indices[i]] over every i with segment_ids[i] == s; a segment without entries is 0.
 * The output has last segment id + 1 rows (0 without indices), each of data's row shape. The runtime has checked
 * the ids (>= 0, non-decreasing), the indices (rows of data) and the output's size. One pass over the indices,
 * each adding one contiguous row: O(len(indices) · row size + output size). Sums are in the dtype: float32 rounds
 * every sum (the Float32Array store does), int32 and int64 wrap.
 */
export const sparseSegmentSum: SparseSegmentSumKernel = ({ data, indices, segment_ids }) => {
  const { dtype } = data;
  const idx = indices.data as ArrayLike<number | bigint>;
  const ids = segment_ids.data as ArrayLike<number | bigint>;
  const n = idx.length;
  const inner = sizeOf(data.shape.slice(1));
  const rows = n === 0 ? 0 : Number(ids[n - 1]) + 1;
  const shape = [rows, ...data.shape.slice(1)];
  const out = allocValues(dtype, inner === 0 ? 0 : rows * inner);
  if (inner > 0) {
    if (dtype === 'int64') {
      const o = out as BigInt64Array;
      const src = data.data as BigInt64Array;
      for (let i = 0; i < n; i++) {
        const so = Number(ids[i]) * inner;
        const ro = Number(idx[i]) * inner;
        for (let j = 0; j < inner; j++) o[so + j] += src[ro + j];
      }
    } else {
      const o = out as Float64Array | Float32Array | Int32Array;
      const src = data.data as Float64Array | Float32Array | Int32Array;
      for (let i = 0; i < n; i++) {
        const so = Number(ids[i]) * inner;
        const ro = Number(idx[i]) * inner;
        for (let j = 0; j < inner; j++) o[so + j] += src[ro + j];
      }
    }
  }
  return { output: { kind: 'dense', data: out, shape, dtype } };
};
