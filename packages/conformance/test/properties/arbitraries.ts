import fc from 'fast-check';
import { sizeOf, type NumericDType, type SparseForm, indexOf } from './grid.js';

export const NUMERIC: NumericDType[] = ['float32', 'float64', 'int32', 'int64'];
export const FLOATS: NumericDType[] = ['float32', 'float64'];

/** Small values: integers stay far from overflow, floats are exact in float32 or rounded on purpose. */
export function valueArb(
  dtype: NumericDType,
  opts: { nonZero?: boolean; min?: number; max?: number } = {},
): fc.Arbitrary<number> {
  const min = opts.min ?? -9;
  const max = opts.max ?? 9;
  const base =
    dtype === 'int32' || dtype === 'int64'
      ? fc.integer({ min, max })
      : fc.oneof(fc.integer({ min, max }), fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
  const v = base.map((x) => (dtype === 'float32' ? Math.fround(x) : x) + 0);
  return opts.nonZero ? v.filter((x) => x !== 0) : v;
}

export function shapeArb(minRank = 1, maxRank = 3, maxDim = 4): fc.Arbitrary<number[]> {
  return fc.array(fc.integer({ min: 0, max: maxDim }), { minLength: minRank, maxLength: maxRank });
}

/** A SparseTensor of `shape`: a random subset of positions (canonical order unless `unordered`), no repeats. */
export function sparseArb(
  shape: number[],
  dtype: NumericDType,
  opts: { unordered?: boolean; values?: fc.Arbitrary<number> } = {},
): fc.Arbitrary<SparseForm> {
  const size = sizeOf(shape);
  const positions = Array.from({ length: size }, (_, i) => i);
  const subset = opts.unordered ? fc.shuffledSubarray(positions) : fc.subarray(positions);
  return fc
    .tuple(subset, fc.array(opts.values ?? valueArb(dtype), { minLength: size, maxLength: size }))
    .map(([pos, vals]) => ({
      sparse: {
        indices: pos.map((off) => indexOf(off, shape)),
        values: pos.map((_, i) => vals[i]),
        dense_shape: shape,
      },
      dtype,
    }));
}

/** A dense shape that broadcasts to `shape`: some leading dims dropped, some dims set to 1. */
export function broadcastShapeArb(shape: number[]): fc.Arbitrary<number[]> {
  return fc
    .tuple(
      fc.integer({ min: 0, max: shape.length }),
      fc.array(fc.boolean(), { minLength: shape.length, maxLength: shape.length }),
    )
    .map(([drop, ones]) => shape.slice(drop).map((d, i) => (ones[i + drop] ? 1 : d)));
}
