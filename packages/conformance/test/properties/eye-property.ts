import fc from 'fast-check';
import type { Case } from '../../src/index.js';
import { oracleProperty, type Property } from './property.js';

// sparse_eye against a dense oracle: the identity pattern of [num_rows, num_columns] read off the dense matrix,
// a one of the dtype wherever row == column; a negative dim refused, naming it.

const DTYPES = ['float32', 'float64', 'int32', 'int64', 'bool'] as const;

function identities(): fc.Arbitrary<Case> {
  return fc
    .record({
      rows: fc.integer({ min: 0, max: 6 }),
      columns: fc.option(fc.integer({ min: 0, max: 6 })),
      dtype: fc.constantFrom(...DTYPES),
    })
    .map(({ rows, columns, dtype }) => {
      const cols = columns ?? rows;
      const indices: number[][] = [];
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) if (r === c) indices.push([r, c]);
      const one = dtype === 'bool' ? true : 1;
      const c: Case = {
        op: 'sparse_eye',
        name: 'property',
        args: { num_rows: rows, num_columns: columns, dtype },
        expect: {
          output: { sparse: { indices, values: indices.map(() => one), dense_shape: [rows, cols] }, dtype },
        },
      };
      return c;
    });
}

function negativeDims(): fc.Arbitrary<Case> {
  return fc
    .record({ which: fc.constantFrom('num_rows', 'num_columns'), bad: fc.integer({ min: -5, max: -1 }) })
    .map(({ which, bad }) => {
      const c: Case = {
        op: 'sparse_eye',
        name: 'property_error',
        args: which === 'num_rows' ? { num_rows: bad } : { num_rows: 2, num_columns: bad },
        expect_error: { kind: 'InvalidArgument', match: `${which} = ${bad} is negative` },
      };
      return c;
    });
}

/** sparse_eye against the dense identity. */
export const EYE_PROPERTY: Property = oracleProperty('sparse_eye', fc.oneof(identities(), negativeDims()));
