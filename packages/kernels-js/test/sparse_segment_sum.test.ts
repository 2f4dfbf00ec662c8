import { describe, expect, it } from 'vitest';
import type { DenseData, DType } from '@sparse/kernel-abi';
import { sparseSegmentSum } from '../src/kernels/sparse_segment_sum.js';
import { dense } from '@sparse/test-kit/plain-data';
import { rng } from '@sparse/test-kit/seeded-random';
import { list } from './helpers.js';

const segSum = (data: DenseData, indices: DenseData, segment_ids: DenseData, num_segments: number | null = null) =>
  sparseSegmentSum({ data, indices, segment_ids, num_segments }).output;
const ints = (xs: number[], dtype: DType = 'int32') => dense(xs, [xs.length], dtype);
const C = () => dense([1, 2, 3, 4, -1, -2, -3, -4, 5, 6, 7, 8], [3, 4], 'int32');

describe('sparse_segment_sum kernel', () => {
  it('reproduces the TensorFlow 2 doc examples', () => {
    const a = segSum(C(), ints([0, 1]), ints([0, 0]));
    expect(a.shape).toEqual([1, 4]);
    expect(list(a.data)).toEqual([0, 0, 0, 0]);
    expect(list(segSum(C(), ints([0, 1]), ints([0, 1])).data)).toEqual([1, 2, 3, 4, -1, -2, -3, -4]);
    expect(list(segSum(C(), ints([0, 2]), ints([0, 1])).data)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(list(segSum(C(), ints([0, 1, 2]), ints([0, 0, 1])).data)).toEqual([0, 0, 0, 0, 5, 6, 7, 8]);
  });

  it('leaves zero rows for segment ids no entry names, takes indices in any order and counts repeats', () => {
    const out = segSum(C(), ints([2, 2, 0], 'int64'), ints([1, 1, 3], 'int64'));
    expect(out.shape).toEqual([4, 4]);
    expect(list(out.data)).toEqual([0, 0, 0, 0, 10, 12, 14, 16, 0, 0, 0, 0, 1, 2, 3, 4]);
  });

  it('sums rows of rank-1 and rank-3 data, every dtype, in the dtype', () => {
    const f32 = segSum(dense([16777216, 1], [2], 'float32'), ints([0, 1, 1]), ints([0, 0, 0]));
    expect(f32.data).toBeInstanceOf(Float32Array);
    expect(list(f32.data)).toEqual([16777216]);
    const f64 = segSum(dense([0.5, 0.25], [2], 'float64'), ints([0, 1]), ints([0, 0]));
    expect(list(f64.data)).toEqual([0.75]);
    const i32 = segSum(dense([2147483647, 1], [2], 'int32'), ints([0, 1]), ints([0, 0]));
    expect(list(i32.data)).toEqual([-2147483648]);
    const i64 = segSum(
      dense([2n ** 63n - 1n, 1n, 9007199254740993n], [3], 'int64'),
      ints([0, 1, 2, 2]),
      ints([0, 0, 1, 1]),
    );
    expect(list(i64.data)).toEqual([-(2n ** 63n), 18014398509481986n]);
    const r3 = segSum(dense([1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 2], 'float64'), ints([1, 0]), ints([0, 0]));
    expect(r3.shape).toEqual([1, 2, 2]);
    expect(list(r3.data)).toEqual([6, 8, 10, 12]);
  });

  it('gives num_segments rows where it is given, zeros past the last id', () => {
    const out = segSum(C(), ints([0, 1]), ints([0, 2]), 4);
    expect(out.shape).toEqual([4, 4]);
    expect(list(out.data)).toEqual([1, 2, 3, 4, 0, 0, 0, 0, -1, -2, -3, -4, 0, 0, 0, 0]);
    const none = segSum(C(), ints([]), ints([]), 2);
    expect(none.shape).toEqual([2, 4]);
    expect(list(none.data)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('gives [0, ...] for empty indices and handles zero-sized rows', () => {
    const e = segSum(C(), ints([]), ints([]));
    expect(e.shape).toEqual([0, 4]);
    expect(e.data.length).toBe(0);
    const z = segSum(dense([], [3, 0], 'float32'), ints([0, 2]), ints([1, 4]));
    expect(z.shape).toEqual([5, 0]);
    expect(z.data.length).toBe(0);
  });

  it('matches a reference on 200k random indices', () => {
    const r = rng(21).next;
    const [rows, inner, n] = [500, 8, 200_000];
    const data = Float64Array.from({ length: rows * inner }, () => Math.floor(r() * 100));
    const idx = Int32Array.from({ length: n }, () => Math.floor(r() * rows));
    const ids = new BigInt64Array(n);
    for (let i = 1, s = 0; i < n; i++) ids[i] = BigInt((s += r() < 0.1 ? 1 + Math.floor(r() * 3) : 0));
    const out = segSum(
      { kind: 'dense', data, shape: [rows, inner], dtype: 'float64' },
      { kind: 'dense', data: idx, shape: [n], dtype: 'int32' },
      { kind: 'dense', data: ids, shape: [n], dtype: 'int64' },
    );
    const last = Number(ids[n - 1]);
    const want = new Float64Array((last + 1) * inner);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < inner; j++) want[Number(ids[i]) * inner + j] += data[idx[i] * inner + j];
    expect(out.shape).toEqual([last + 1, inner]);
    expect(Array.from(out.data as Float64Array)).toEqual(Array.from(want));
  });
});
