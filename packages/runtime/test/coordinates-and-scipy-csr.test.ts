import { expect, it } from 'vitest';
import { CsrMatrix, SparseTensor } from '../src/index.js';

// The constructors scipy and PyTorch users reach for: COO from one array of indices per dim (int64 ones included),
// and CSR from scipy's parts: int64 pointers, columns unsorted or repeated within a row when asked to canonicalize.

it('fromCoordinates takes scipy (row, col) and PyTorch [rank, nnz] indices, int64 typed arrays too', () => {
  const st = SparseTensor.fromCoordinates([Int32Array.of(2, 0), BigInt64Array.of(1n, 3n)], [5, 7], [3, 4], 'float32');
  expect(st.indices).toEqual([
    [2, 1],
    [0, 3],
  ]);
  expect(Array.from(st.values as Float32Array)).toEqual([5, 7]);
  expect(st.denseShape).toEqual([3, 4]);
  const rank3 = SparseTensor.fromCoordinates([[0], [1], [2]], [1], [1, 2, 3]);
  expect(rank3.indices).toEqual([[0, 1, 2]]);
  expect(SparseTensor.fromCoordinates([[], []], [], [2, 2]).nnz).toBe(0);
});

it('fromCoordinates checks as the constructor does, naming what is wrong', () => {
  expect(() => SparseTensor.fromCoordinates([[0, 1], [0]], [1, 2], [2, 2])).toThrow(
    /fromCoordinates: coordinates\[1\] has 1 indices, coordinates\[0\] has 2/,
  );
  expect(() => SparseTensor.fromCoordinates([[0, 1]], [1, 2], [2, 2])).toThrow(
    /fromCoordinates: coordinates has 1 arrays of indices for a dense shape of rank 2/,
  );
  expect(() => SparseTensor.fromCoordinates([0, 1] as never, [1, 2], [2])).toThrow(TypeError);
  // Entry 1's index along dim 0.
  expect(() => SparseTensor.fromCoordinates([[0, 1.5]], [1, 2], [3])).toThrow(
    /indices\[1\]\[0\] = 1.5 is not a whole number/,
  );
});

it('CsrMatrix takes int64 row pointers and columns where they fit int32', () => {
  const m = new CsrMatrix(BigInt64Array.of(0n, 1n, 1n, 2n), BigInt64Array.of(1n, 0n), [5, 7], [3, 2], 'float32');
  expect(Array.from(m.rowPointers)).toEqual([0, 1, 1, 2]);
  expect(Array.from(m.colIndices)).toEqual([1, 0]);
  expect(() => new CsrMatrix([0n, 2n ** 40n], [0n], [1], [1, 1], 'float32')).toThrow(
    /row_pointers\[1\] = .* is not a whole number in \[0, 2\^31 - 1\]/,
  );
});

it("canonicalize sorts each row's columns and sums repeats in their order, as scipy's sum_duplicates", () => {
  // Row 0: columns 3, 1, 3 (a repeat); row 1: empty; row 2: columns 2, 0.
  const parts = [
    [0, 3, 3, 5],
    [3, 1, 3, 2, 0],
    [1, 2, 4, 8, 16],
  ] as const;
  expect(() => new CsrMatrix(...parts, [3, 4], 'float32')).toThrow(
    /col_indices\[1\] = 1 is not above the column before it .*pass \{ canonicalize: true \}/,
  );
  const m = new CsrMatrix(...parts, [3, 4], { dtype: 'float32', canonicalize: true });
  expect(Array.from(m.rowPointers)).toEqual([0, 2, 2, 4]);
  expect(Array.from(m.colIndices)).toEqual([1, 3, 0, 2]);
  expect(Array.from(m.values as Float32Array)).toEqual([2, 5, 16, 8]);
  // float32 rounds each sum, in entry order: (2^24 + 1) + 1 is 2^24 then 2^24, not 2^24 + 2.
  const r = new CsrMatrix([0, 3], [0, 0, 0], [2 ** 24, 1, 1], [1, 1], { dtype: 'float32', canonicalize: true });
  expect(Array.from(r.values as Float32Array)).toEqual([2 ** 24]);
  const batch = new CsrMatrix([0, 2, 0, 2], [1, 0, 1, 1], [1, 2, 3, 4], [2, 1, 2], {
    dtype: 'float64',
    canonicalize: true,
  });
  expect(Array.from(batch.batchPointers)).toEqual([0, 2, 3]);
  expect(Array.from(batch.rowPointers)).toEqual([0, 2, 0, 1]);
  expect(Array.from(batch.colIndices)).toEqual([0, 1, 1]);
  expect(Array.from(batch.values as Float64Array)).toEqual([2, 1, 7]);
  expect(() => new CsrMatrix([0, 1], [9], [1], [1, 2], { canonicalize: true, dtype: 'float32' })).toThrow(
    /col_indices\[0\] = 9 is out of bounds: the matrix has 2 columns/,
  );
  expect(() => new CsrMatrix([0, 1], [0], [1], [1, 2], { canonicalise: true } as never)).toThrow(
    /unknown option 'canonicalise'/,
  );
});
