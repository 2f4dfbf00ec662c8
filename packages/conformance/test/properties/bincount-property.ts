import fc from 'fast-check';
import type { Case } from '../../src/index.js';
import { NUMERIC } from './arbitraries.js';
import { oracleProperty, type Property } from './property.js';
import type { NumericDType, SparseForm } from './grid.js';
import { dimArb, exactValueArb, looseSparseArb } from './math-arbitraries.js';

// sparse_bincount against a dense oracle: a dense [rows, size] (or [size]) table of counts, weight sums or ones,
// filled entry by entry from the stored values, read back as the entries that were hit, in row-major order.

interface BincountInput {
  values: SparseForm;
  weights: SparseForm | null;
  axis: 0 | -1;
  minlength: number | null;
  maxlength: number | null;
  binary: boolean;
}

const inputArb: fc.Arbitrary<BincountInput> = fc
  .record({
    rank: fc.integer({ min: 1, max: 2 }),
    dims: fc.tuple(fc.integer({ min: 1, max: 4 }), dimArb),
    valueDType: fc.constantFrom('int32' as const, 'int64' as const),
    weightDType: fc.option(fc.constantFrom(...NUMERIC)),
    axis: fc.constantFrom(0 as const, -1 as const),
    minlength: fc.option(fc.integer({ min: -1, max: 9 })),
    maxlength: fc.option(fc.integer({ min: -1, max: 7 })),
    binary: fc.boolean(),
  })
  .chain(({ rank, dims, valueDType, weightDType, axis, minlength, maxlength, binary }) => {
    const shape = rank === 1 ? [dims[1]] : dims;
    return looseSparseArb(shape, valueDType, fc.integer({ min: 0, max: 8 })).chain((values) => {
      const n = values.sparse.values.length;
      const weights =
        weightDType === null || binary
          ? fc.constant(null)
          : fc
              .array(exactValueArb(weightDType), { minLength: n, maxLength: n })
              .map((w): SparseForm => ({ sparse: { ...values.sparse, values: w }, dtype: weightDType }));
      return weights.map((w) => ({ values, weights: w, axis, minlength, maxlength, binary }));
    });
  });

function counts(s: BincountInput): Case {
  const { indices, values, dense_shape } = s.values.sparse;
  const byRow = s.axis === -1 && dense_shape.length === 2;
  const rows = byRow ? dense_shape[0] : 1;
  const cap = s.maxlength ?? -1;
  const counted = values.map((v, i) => i).filter((i) => cap < 0 || values[i] < cap);
  const size = cap >= 0 ? cap : Math.max(Math.max(0, ...counted.map((i) => values[i])) + 1, s.minlength ?? -1);
  const table = new Array<number>(rows * size).fill(0);
  const hit = new Array<boolean>(rows * size).fill(false);
  for (const i of counted) {
    const at = (byRow ? indices[i][0] * size : 0) + values[i];
    table[at] = s.binary ? 1 : table[at] + (s.weights ? s.weights.sparse.values[i] : 1);
    hit[at] = true;
  }
  const dtype: NumericDType = s.weights?.dtype ?? s.values.dtype;
  const at = table.map((_, k) => k).filter((k) => hit[k]);
  const c: Case = {
    op: 'sparse_bincount',
    name: 'property',
    args: {
      values: s.values,
      weights: s.weights,
      axis: s.axis,
      minlength: s.minlength,
      maxlength: s.maxlength,
      binary_output: s.binary,
    },
    expect: {
      output: {
        sparse: {
          indices: at.map((k) => (byRow ? [Math.floor(k / size), k % size] : [k])),
          values: at.map((k) => table[k] + 0),
          dense_shape: byRow ? [rows, size] : [size],
        },
        dtype,
      },
    },
  };
  return c;
}

/** A negative value, counted or not: refused, naming it. */
function negativeValue(): fc.Arbitrary<Case> {
  return inputArb
    .filter((s) => s.values.sparse.values.length > 0)
    .chain((s) => fc.tuple(fc.constant(s), fc.nat(), fc.integer({ min: -9, max: -1 })))
    .map(([s, pick, bad]) => {
      const i = pick % s.values.sparse.values.length;
      const values = {
        ...s.values,
        sparse: { ...s.values.sparse, values: s.values.sparse.values.map((v, k) => (k === i ? bad : v)) },
      };
      const c: Case = {
        op: 'sparse_bincount',
        name: 'property_error',
        args: { values, axis: s.axis, maxlength: s.maxlength },
        expect_error: { kind: 'InvalidArgument', match: `values\\.values\\[${i}\\] = ${bad} is negative` },
      };
      return c;
    });
}

/** sparse_bincount against a dense table of counts. */
export const BINCOUNT_PROPERTY: Property = oracleProperty(
  'sparse_bincount',
  fc.oneof({ weight: 4, arbitrary: inputArb.map(counts) }, negativeValue()),
);
