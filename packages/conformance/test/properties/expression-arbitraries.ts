import fc from 'fast-check';
import { indexOf, sizeOf, type NumericDType } from './grid.js';
import type { Num } from './dtype-arithmetic.js';
import type { NumSparse } from './expression-values.js';

// Values for the expression-family oracles. Each tensor draws its values from one range, picked per tensor, so that
// every expression meets values it computes normally, values it refuses (an integer division by zero, a negative
// power) and values that overflow: small values of either sign, small positive ones (no zero divisor, no negative
// power or root), for integers any value of the dtype (sums and products wrap), for floats some nan, inf and -0.

const INT_BOUNDS = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
} as const;

function intRange(dtype: 'int32' | 'int64', min: number, max: number): fc.Arbitrary<Num> {
  return dtype === 'int64' ? fc.bigInt({ min: BigInt(min), max: BigInt(max) }) : fc.integer({ min, max });
}

function floatRange(dtype: 'float32' | 'float64', min: number, max: number): fc.Arbitrary<Num> {
  const round = dtype === 'float32' ? Math.fround : (x: number) => x;
  return fc
    .oneof(fc.integer({ min: Math.ceil(min), max: Math.floor(max) }), fc.double({ min, max, noNaN: true }))
    .map((x) => round(x) + 0);
}

/** The ranges a tensor of `dtype` may draw its values from, weighted. */
export function valueRangeArb(dtype: NumericDType): fc.Arbitrary<fc.Arbitrary<Num>> {
  if (dtype === 'int32' || dtype === 'int64') {
    const wide =
      dtype === 'int64'
        ? fc.bigInt({ min: INT_BOUNDS.int64[0], max: INT_BOUNDS.int64[1] })
        : fc.integer({ min: INT_BOUNDS.int32[0], max: INT_BOUNDS.int32[1] });
    return fc.oneof(
      { weight: 4, arbitrary: fc.constant(intRange(dtype, -9, 9)) },
      { weight: 2, arbitrary: fc.constant(intRange(dtype, 1, 3)) },
      { weight: 1, arbitrary: fc.constant(wide) },
    );
  }
  const small = floatRange(dtype, -9, 9);
  const special = fc.oneof({ weight: 3, arbitrary: small }, fc.constantFrom(NaN, Infinity, -Infinity, -0));
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(small) },
    { weight: 2, arbitrary: fc.constant(floatRange(dtype, 0.25, 3)) },
    { weight: 1, arbitrary: fc.constant(special) },
  );
}

/** `n` values of one range. */
export const valuesArb = (dtype: NumericDType, n: number): fc.Arbitrary<Num[]> =>
  valueRangeArb(dtype).chain((range) => fc.array(range, { minLength: n, maxLength: n }));

/** One value, of any range. */
export const scalarArb = (dtype: NumericDType): fc.Arbitrary<Num> => valueRangeArb(dtype).chain((range) => range);

/** A SparseTensor of `shape` on distinct random positions: in canonical order, or (`ordered: false`) shuffled. */
export function numSparseArb(shape: number[], dtype: NumericDType, ordered: boolean): fc.Arbitrary<NumSparse> {
  const positions = Array.from({ length: sizeOf(shape) }, (_, i) => i);
  return fc
    .tuple(ordered ? fc.subarray(positions) : fc.shuffledSubarray(positions), valuesArb(dtype, positions.length))
    .map(([chosen, values]) => ({
      indices: chosen.map((off) => indexOf(off, shape)),
      values: chosen.map((_, i) => values[i]),
      shape,
    }));
}
