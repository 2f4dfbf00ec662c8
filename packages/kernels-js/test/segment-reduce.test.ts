import { describe, expect, it } from 'vitest';
import type { DenseData, DType } from '@sparse/kernel-abi';
import { sparseSegmentMean } from '../src/kernels/sparse_segment_mean.js';
import { sparseSegmentSqrtN } from '../src/kernels/sparse_segment_sqrt_n.js';
import { dense } from '@sparse/test-kit/plain-data';
import { list } from './helpers.js';

const ints = (xs: number[], dtype: DType = 'int32') => dense(xs, [xs.length], dtype);
const mean = (data: DenseData, idx: number[], ids: number[], num_segments: number | null = null) =>
  sparseSegmentMean({ data, indices: ints(idx), segment_ids: ints(ids), num_segments }).output;
const sqrtN = (data: DenseData, idx: number[], ids: number[], num_segments: number | null = null) =>
  sparseSegmentSqrtN({ data, indices: ints(idx), segment_ids: ints(ids), num_segments }).output;
const C = () => dense([1, 2, 3, 4, -1, -2, -3, -4, 5, 6, 7, 8], [3, 4], 'float64');

describe('sparse_segment_mean and sparse_segment_sqrt_n kernels', () => {
  it('average (or scale by 1/sqrt(count)) the rows of each segment; a segment without rows is 0, not NaN', () => {
    const m = mean(C(), [0, 2, 2, 1], [0, 0, 0, 2], 4);
    expect(m.shape).toEqual([4, 4]);
    // Below 10 rows, times the reciprocal of the count (14 · (1/3) is 4.666666666666666, 14 / 3 4.666666666666667).
    const third = [11, 14, 17, 20].map((x) => x * (1 / 3));
    expect(list(m.data)).toEqual([...third, 0, 0, 0, 0, -1, -2, -3, -4, 0, 0, 0, 0]);
    const s = sqrtN(C(), [0, 2], [1, 1]);
    expect(s.shape).toEqual([2, 4]);
    expect(list(s.data)).toEqual([0, 0, 0, 0, ...[6, 8, 10, 12].map((x) => x * (1 / Math.SQRT2))]);
  });

  it('scale as TensorFlow: times the float32 reciprocal below 10 rows, divided from 10 on', () => {
    const f32 = dense([0, 1], [2], 'float32');
    // 5/3: the reciprocal of 3 in float32 times 5 is 1.6666667461..., 5 / 3 in float32 would be 1.6666666269...
    expect(list(mean(dense([1, 2], [2], 'float32'), [0, 1, 1], [0, 0, 0]).data)).toEqual([1.6666667461395264]);
    // 5/12: divided, 0.4166666567...; times the reciprocal it would be 0.4166666865...
    const twelve = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
    expect(list(mean(f32, twelve, new Array<number>(12).fill(0)).data)).toEqual([0.4166666567325592]);
    expect(list(sqrtN(dense([1, 2], [2], 'float32'), [0, 0, 0], [0, 0, 0]).data)).toEqual([1.7320507764816284]);
    const ten = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1];
    const s10 = sqrtN(dense([3, 4], [2], 'float32'), ten, new Array<number>(10).fill(0));
    expect(s10.data).toBeInstanceOf(Float32Array);
    expect(list(s10.data)).toEqual([11.067971229553223]);
  });

  it('leave a segment of one row as that row, NaN and infinities as they come', () => {
    const x = dense([Number.NaN, 1, Number.POSITIVE_INFINITY, 0.1], [4], 'float32');
    expect(list(mean(x, [3, 0, 1, 2, 1], [0, 1, 1, 2, 2]).data)).toEqual([Math.fround(0.1), Number.NaN, Infinity]);
  });

  it('give num_segments rows of zeros without indices, and no rows without either', () => {
    const z = mean(C(), [], [], 3);
    expect(z.shape).toEqual([3, 4]);
    expect(list(z.data)).toEqual(new Array<number>(12).fill(0));
    expect(sqrtN(C(), [], []).shape).toEqual([0, 4]);
  });
});
