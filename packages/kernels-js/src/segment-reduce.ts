import type { DenseData } from '@sparse/kernel-abi';
import { allocValues, segmentRows, sizeOf } from '@sparse/kernel-abi';

/** How the rows of one segment combine: their sum, their mean, or their sum over the square root of their count. */
export type SegmentMode = 'sum' | 'mean' | 'sqrt_n';

/** The arguments the three sparse segment reductions share. */
export interface SegmentArgs {
  data: DenseData;
  indices: DenseData;
  segment_ids: DenseData;
  num_segments: number | null;
}

/**
 * The scale TensorFlow's CPU kernel gives a segment of `count` rows (count > 1): it multiplies the sum by the
 * reciprocal of its divisor below 10 rows and divides by it from 10 on, each step in the dtype (the divisor too: the
 * square root of the count, rounded to it). Returns the function of the sum.
 */
function segmentScale(mode: 'mean' | 'sqrt_n', count: number, float32: boolean): (sum: number) => number {
  const r = float32 ? Math.fround : (x: number) => x;
  const m = r(mode === 'mean' ? count : Math.sqrt(count));
  if (count < 10) {
    const inv = r(1 / m);
    return (sum) => r(sum * inv);
  }
  return (sum) => r(sum / m);
}

/**
 * output[s] = the rows data[indices[i]] with segment_ids[i] == s combined by `mode`; a segment without rows is 0.
 * The runtime has checked the ids (>= 0, non-decreasing, below num_segments), the indices (rows of data) and the
 * output's size. One pass over the indices, each adding one contiguous row, each segment scaled as its run of ids
 * ends (the ids are sorted, so no counts are kept): O(len(indices) · row size + output size). Sums are in the dtype,
 * in the order of the indices: float32 rounds every sum (the Float32Array store does), int32 and int64 wrap.
 */
export function segmentReduce(args: SegmentArgs, mode: SegmentMode): DenseData {
  const { data, indices, segment_ids, num_segments } = args;
  const { dtype } = data;
  const idx = indices.data as ArrayLike<number | bigint>;
  const ids = segment_ids.data as ArrayLike<number | bigint>;
  const n = idx.length;
  const inner = sizeOf(data.shape.slice(1));
  const rows = segmentRows(ids, num_segments);
  const shape = [rows, ...data.shape.slice(1)];
  const out = allocValues(dtype, inner === 0 ? 0 : rows * inner);
  if (inner === 0) return { kind: 'dense', data: out, shape, dtype };
  if (dtype === 'int64') {
    const o = out as BigInt64Array;
    const src = data.data as BigInt64Array;
    for (let i = 0; i < n; i++) {
      const so = Number(ids[i]) * inner;
      const ro = Number(idx[i]) * inner;
      for (let j = 0; j < inner; j++) o[so + j] += src[ro + j];
    }
    return { kind: 'dense', data: out, shape, dtype };
  }
  const o = out as Float64Array | Float32Array | Int32Array;
  const src = data.data as Float64Array | Float32Array | Int32Array;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const so = Number(ids[i]) * inner;
    const ro = Number(idx[i]) * inner;
    for (let j = 0; j < inner; j++) o[so + j] += src[ro + j];
    // The end of a segment's run of ids: scale its row.
    if (mode !== 'sum' && (i === n - 1 || ids[i + 1] !== ids[i])) {
      const count = i - start + 1;
      start = i + 1;
      if (count === 1) continue;
      const scale = segmentScale(mode, count, dtype === 'float32');
      for (let j = 0; j < inner; j++) o[so + j] = scale(o[so + j]);
    }
  }
  return { kind: 'dense', data: out, shape, dtype };
}
