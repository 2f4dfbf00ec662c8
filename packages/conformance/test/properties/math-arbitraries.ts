import fc from 'fast-check';
import { valueArb } from './arbitraries.js';
import { sizeOf, type NumericDType, type SparseForm, indexOf } from './grid.js';

/**
 * Values every dtype holds exactly and whose small sums and products stay exact in float32 too (quarters for
 * the floats, small integers otherwise), so a plain float64 dense oracle gives the bit-exact result.
 */
export function exactValueArb(dtype: NumericDType): fc.Arbitrary<number> {
  if (dtype === 'int32' || dtype === 'int64') return valueArb(dtype);
  return fc.integer({ min: -36, max: 36 }).map((q) => q / 4 + 0);
}

/**
 * A SparseTensor of `shape` whose entries sit at random positions, in any order and possibly repeated
 * (`repeats`), for ops that take unordered input and add repeats up.
 */
export function looseSparseArb(
  shape: number[],
  dtype: NumericDType,
  values: fc.Arbitrary<number>,
  repeats = true,
): fc.Arbitrary<SparseForm> {
  const size = sizeOf(shape);
  if (size === 0) return fc.constant({ sparse: { indices: [], values: [], dense_shape: shape }, dtype });
  const positions = repeats
    ? fc.array(fc.integer({ min: 0, max: size - 1 }), { maxLength: Math.min(2 * size, 12) })
    : fc.shuffledSubarray(Array.from({ length: size }, (_, i) => i));
  return positions.chain((pos) =>
    fc.array(values, { minLength: pos.length, maxLength: pos.length }).map((vals) => ({
      sparse: { indices: pos.map((off) => indexOf(off, shape)), values: vals, dense_shape: shape },
      dtype,
    })),
  );
}

/** A dense matrix of `shape` in row-major plain numbers. */
export function matrixArb(shape: [number, number], values: fc.Arbitrary<number>): fc.Arbitrary<number[]> {
  const n = shape[0] * shape[1];
  return fc.array(values, { minLength: n, maxLength: n });
}

/** A non-decreasing list of `n` segment ids >= 0: a start of 0..2, then steps of 0..2. */
export function segmentIdsArb(n: number): fc.Arbitrary<number[]> {
  return fc
    .tuple(fc.integer({ min: 0, max: 2 }), fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n, maxLength: n }))
    .map(([start, steps]) => {
      let s = start;
      return steps.map((step, i) => (i === 0 ? s : (s += step)));
    });
}

/** A dim of 1..4, or 0 once in six times. */
export const dimArb = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 4 }) },
  { weight: 1, arbitrary: fc.constant(0) },
);
