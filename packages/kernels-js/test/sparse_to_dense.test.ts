import { describe, expect, it } from 'vitest';
import { sparseToDense } from '../src/kernels/sparse_to_dense.js';
import { dense } from '@sparse/test-kit/plain-data';
import { list } from './helpers.js';

describe('sparse_to_dense kernel', () => {
  it('takes a scalar index into a vector', () => {
    const out = sparseToDense({
      sparse_indices: dense([2], [], 'int32'),
      output_shape: [5],
      sparse_values: dense([7], [], 'int32'),
      default_value: 0,
      validate_indices: true,
    }).output;
    expect(out.shape).toEqual([5]);
    expect(list(out.data)).toEqual([0, 0, 7, 0, 0]);
  });

  it('takes a vector of int64 indices', () => {
    const out = sparseToDense({
      sparse_indices: dense([1n, 3n], [2], 'int64'),
      output_shape: [5],
      sparse_values: dense([10.5, 20.25], [2], 'float32'),
      default_value: -1,
      validate_indices: true,
    }).output;
    expect(out.data).toBeInstanceOf(Float32Array);
    expect(list(out.data)).toEqual([-1, 10.5, -1, 20.25, -1]);
  });

  it('takes a matrix of indices', () => {
    const out = sparseToDense({
      sparse_indices: dense([0, 1, 2, 1, 0, 0], [2, 3], 'int32'),
      output_shape: [2, 2, 3],
      sparse_values: dense(['p', 'q'], [2], 'string'),
      default_value: '',
      validate_indices: true,
    }).output;
    expect(out.data).toEqual(['', '', '', '', '', 'p', 'q', '', '', '', '', '']);
  });

  it('gives a scalar value to every index', () => {
    const out = sparseToDense({
      sparse_indices: dense([0, 0, 1, 1, 2, 2], [3, 2], 'int64'),
      output_shape: [3, 3],
      sparse_values: dense([true], [], 'bool'),
      default_value: false,
      validate_indices: true,
    }).output;
    expect(list(out.data)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });

  it('lets the last value of a repeated index win when not validating', () => {
    const out = sparseToDense({
      sparse_indices: dense([3, 1, 3], [3], 'int32'),
      output_shape: [4],
      sparse_values: dense([1n, 2n, 2n ** 60n], [3], 'int64'),
      default_value: 0n,
      validate_indices: false,
    }).output;
    expect(list(out.data)).toEqual([0n, 2n, 0n, 2n ** 60n]);
  });

  it('fills the default when there are no indices', () => {
    const out = sparseToDense({
      sparse_indices: dense([], [0, 2], 'int64'),
      output_shape: [2, 2],
      sparse_values: dense([], [0], 'float64'),
      default_value: 0.5,
      validate_indices: true,
    }).output;
    expect(list(out.data)).toEqual([0.5, 0.5, 0.5, 0.5]);
  });
});
