import fc from 'fast-check';
import { fingerprint64, fingerprintCat64 } from '@sparse/kernels-js/internals';
import type { Case } from '../../src/index.js';
import { oracleProperty, type Property } from './property.js';

// The feature crosses against a naive enumeration written apart from the kernels: each input's features of a row
// found by scanning it (a SparseTensor's entries of that row in stored order, a dense tensor's row), the inputs in
// TensorFlow's column order (SparseTensors, then dense tensors), and each row's product built by recursion, the
// last input varying fastest. The hashes fold TensorFlow's fingerprints (checked against FarmHash's and
// TensorFlow's own values in kernels-js) and reduce them with BigInt arithmetic.

type Feature = number | bigint | string;
type CrossDType = 'int32' | 'int64' | 'string';

/** A random input: its case value, whether it is sparse, and its features row by row. */
interface Input {
  arg: unknown;
  sparse: boolean;
  rows: Feature[][];
}

const featureArb = (dtype: CrossDType): fc.Arbitrary<Feature> => {
  if (dtype === 'int32') return fc.oneof(fc.integer({ min: -20, max: 20 }), fc.constantFrom(-(2 ** 31), 2 ** 31 - 1));
  if (dtype === 'int64') return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
  return fc.string({ unit: fc.constantFrom('a', 'b', 'é', '日', '😀', '_', '0'), maxLength: 5 });
};

// int64 values are written as digit strings, exact past 2^53.
const caseValue = (f: Feature): number | string => (typeof f === 'bigint' ? f.toString() : f);

function denseInputArb(batch: number, dtype: CrossDType): fc.Arbitrary<Input> {
  return fc.integer({ min: 0, max: 3 }).chain((width) =>
    fc
      .array(fc.array(featureArb(dtype), { minLength: width, maxLength: width }), {
        minLength: batch,
        maxLength: batch,
      })
      .map((rows) => ({
        arg:
          batch * width === 0
            ? { dense: [], shape: [batch, width], dtype }
            : { dense: rows.map((r) => r.map(caseValue)), dtype },
        sparse: false,
        rows,
      })),
  );
}

/** Entries in any rows, in any order (grouped by row half of the time), columns anywhere within the dense shape. */
function sparseInputArb(batch: number, dtype: CrossDType): fc.Arbitrary<Input> {
  const cols = 4;
  const entry = () =>
    fc.tuple(fc.integer({ min: 0, max: batch - 1 }), fc.integer({ min: 0, max: cols - 1 }), featureArb(dtype));
  const entries = batch === 0 ? fc.constant([]) : fc.array(entry(), { maxLength: 8 });
  return fc.tuple(entries, fc.boolean()).map(([list, grouped]) => {
    const stored = grouped ? [...list].sort((x, y) => x[0] - y[0]) : list;
    const rows = Array.from({ length: batch }, (_, r) => stored.filter((e) => e[0] === r).map((e) => e[2]));
    return {
      arg: {
        sparse: {
          indices: stored.map((e) => [e[0], e[1]]),
          values: stored.map((e) => caseValue(e[2])),
          dense_shape: [batch, cols],
        },
        dtype,
      },
      sparse: true,
      rows,
    };
  });
}

const inputsArb: fc.Arbitrary<{ batch: number; inputs: Input[] }> = fc
  .record({ batch: fc.integer({ min: 0, max: 4 }), count: fc.integer({ min: 0, max: 4 }) })
  .chain(({ batch, count }) =>
    fc
      .array(
        fc
          .tuple(fc.boolean(), fc.constantFrom<CrossDType>('int32', 'int64', 'string'))
          .chain(([sparse, dtype]) => (sparse ? sparseInputArb(batch, dtype) : denseInputArb(batch, dtype))),
        { minLength: count, maxLength: count },
      )
      .map((inputs) => ({ batch, inputs })),
  );

/** Every cross of every row, in order: [row, its features], by recursion over the columns. */
function enumerate(batch: number, inputs: Input[]): [number, Feature[]][] {
  const columns = [...inputs.filter((x) => x.sparse), ...inputs.filter((x) => !x.sparse)];
  const out: [number, Feature[]][] = [];
  if (columns.length === 0) return out;
  const product = (row: number, c: number, chosen: Feature[]): void => {
    if (c === columns.length) {
      out.push([row, chosen]);
      return;
    }
    for (const f of columns[c].rows[row]) product(row, c + 1, [...chosen, f]);
  };
  for (let r = 0; r < batch; r++) product(r, 0, []);
  return out;
}

/** The sparse output of the crosses, `value` of each: indices [row, position in the row], shape [batch, widest]. */
function crossOutput(
  batch: number,
  inputs: Input[],
  value: (features: Feature[]) => number | string,
  dtype: string,
): unknown {
  const crosses = enumerate(batch, inputs);
  const indices: number[][] = [];
  const perRow = new Map<number, number>();
  for (const [row] of crosses) {
    const j = perRow.get(row) ?? 0;
    indices.push([row, j]);
    perRow.set(row, j + 1);
  }
  const widest = Math.max(0, ...perRow.values());
  const shape = [inputs.length === 0 ? 0 : batch, widest];
  return { sparse: { indices, values: crosses.map(([, fs]) => value(fs)), dense_shape: shape }, dtype };
}

function sparseCross(): Property {
  const cases = fc
    .tuple(inputsArb, fc.constantFrom(null, '_X_', '', '-', ' | ', '·'))
    .map(([{ batch, inputs }, separator]): Case => {
      const join = (fs: Feature[]) => fs.map(String).join(separator ?? '_X_');
      return {
        op: 'sparse_cross',
        name: 'property',
        args: { inputs: inputs.map((x) => x.arg), separator },
        expect: { output: crossOutput(batch, inputs, join, 'string') },
      };
    });
  return oracleProperty('sparse_cross', cases);
}

const DEFAULT_KEY = 0xdecafcaffen;
const INT64_MAX = 2n ** 63n - 1n;

function sparseCrossHashed(): Property {
  const buckets = fc.oneof(
    fc.constant(0),
    fc.integer({ min: 1, max: 1000 }),
    fc.constantFrom(1024, 2 ** 37, 2 ** 37 + 1, 2 ** 40 + 15, 2 ** 53 - 1),
  );
  const key = fc.oneof(fc.constant(null), fc.constant(0n), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }));
  const cases = fc.tuple(inputsArb, buckets, key).map(([{ batch, inputs }, numBuckets, hashKey]): Case => {
    const start = hashKey === null || hashKey === 0n ? DEFAULT_KEY : BigInt.asUintN(64, hashKey);
    const hash = (fs: Feature[]) => {
      const h = fs.reduce<bigint>(
        (acc, f) => fingerprintCat64(acc, typeof f === 'string' ? fingerprint64(f) : BigInt.asUintN(64, BigInt(f))),
        start,
      );
      return (h % (numBuckets > 0 ? BigInt(numBuckets) : INT64_MAX)).toString();
    };
    return {
      op: 'sparse_cross_hashed',
      name: 'property',
      args: {
        inputs: inputs.map((x) => x.arg),
        num_buckets: numBuckets,
        hash_key: hashKey === null ? null : { dense: hashKey.toString(), dtype: 'int64' },
      },
      expect: { output: crossOutput(batch, inputs, hash, 'int64') },
    };
  });
  return oracleProperty('sparse_cross_hashed', cases);
}

export const CROSS_PROPERTIES: Property[] = [sparseCross(), sparseCrossHashed()];
