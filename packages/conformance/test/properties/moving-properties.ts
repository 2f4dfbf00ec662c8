import fc from 'fast-check';
import type { Case } from '../../src/index.js';
import { shapeArb, valueArb } from './arbitraries.js';
import { oracleProperty, type Property } from './property.js';
import { indexOf, nest, offsetOf, sizeOf } from './grid.js';

// Properties of the ops that move entries (retain, reset_shape, fill_empty_rows, transpose, to_indicator,
// merge), each against an oracle that works on the dense positions, not on the kernel's index arithmetic.

type AnyDType = 'float32' | 'float64' | 'int32' | 'int64' | 'bool' | 'string';
type Value = number | boolean | string;
const ALL: AnyDType[] = ['float32', 'float64', 'int32', 'int64', 'bool', 'string'];
const IDS: AnyDType[] = ['int32', 'int64'];

interface AnySparse {
  sparse: { indices: number[][]; values: Value[]; dense_shape: number[] };
  dtype: AnyDType;
}

const one = (op: string, args: Record<string, unknown>, expect: Record<string, unknown>): Case => ({
  op,
  name: 'property',
  args,
  expect,
});
const st = (indices: number[][], values: Value[], dense_shape: number[], dtype: AnyDType): AnySparse => ({
  sparse: { indices, values, dense_shape },
  dtype,
});

/** One value of any dtype: small numbers (float32-exact where they must be), bools, short strings. */
function anyValueArb(dtype: AnyDType): fc.Arbitrary<Value> {
  if (dtype === 'bool') return fc.boolean();
  if (dtype === 'string') return fc.string({ maxLength: 3 });
  return valueArb(dtype);
}

/** A permutation of 0..n-1. */
const permArb = (n: number): fc.Arbitrary<number[]> =>
  fc.shuffledSubarray(
    Array.from({ length: n }, (_, i) => i),
    { minLength: n, maxLength: n },
  );

/** A SparseTensor of any dtype on distinct random positions of `shape`, in random order (or canonical order). */
function anySparseArb(
  shape: number[],
  dtype: AnyDType,
  opts: { unordered?: boolean; values?: fc.Arbitrary<Value> } = {},
): fc.Arbitrary<AnySparse> {
  const size = sizeOf(shape);
  const positions = Array.from({ length: size }, (_, i) => i);
  const subset = opts.unordered === false ? fc.subarray(positions) : fc.shuffledSubarray(positions);
  return fc
    .tuple(subset, fc.array(opts.values ?? anyValueArb(dtype), { minLength: size, maxLength: size }))
    .map(([pos, vals]) =>
      st(
        pos.map((off) => indexOf(off, shape)),
        pos.map((_, i) => vals[i]),
        shape,
        dtype,
      ),
    );
}

/** A dtype, a shape (rank 0..3, dims 0..4) and a SparseTensor on it, entries in random order. */
const inputArb = (dtypes: AnyDType[], minRank = 0, maxRank = 3) =>
  fc
    .constantFrom(...dtypes)
    .chain((dtype) => shapeArb(minRank, maxRank, 4).chain((shape) => anySparseArb(shape, dtype)));

/** sparse_retain: the flagged entries, in their input order; the dense shape stays. */
function retain(): Property {
  const cases = inputArb(ALL).chain((sp) =>
    fc.array(fc.boolean(), { minLength: sp.sparse.values.length, maxLength: sp.sparse.values.length }).map((mask) => {
      const keep = (_: unknown, i: number) => mask[i];
      const out = st(sp.sparse.indices.filter(keep), sp.sparse.values.filter(keep), sp.sparse.dense_shape, sp.dtype);
      return one(
        'sparse_retain',
        { sp_input: sp, to_retain: { dense: mask, shape: [mask.length], dtype: 'bool' } },
        { output: out },
      );
    }),
  );
  return oracleProperty('sparse_retain', cases);
}

/** sparse_reset_shape: the same entries with a larger shape, or the bounding box of the stored positions. */
function resetShape(): Property {
  const cases = inputArb(ALL).chain((sp) => {
    const shape = sp.sparse.dense_shape;
    const grown = fc
      .array(fc.integer({ min: 0, max: 2 }), { minLength: shape.length, maxLength: shape.length })
      .map((g) => shape.map((d, i) => d + g[i]));
    return fc.oneof(fc.constant(undefined), fc.constant(null), grown).map((newShape) => {
      // The bounding box, from the dense positions: the largest coordinate stored in each dim, plus one.
      let box = shape.map(() => 0);
      for (const off of sp.sparse.indices.map((ix) => offsetOf(ix, shape)))
        box = indexOf(off, shape).map((x, d) => Math.max(box[d], x + 1));
      const args: Record<string, unknown> = { sp_input: sp };
      if (newShape !== undefined) args.new_shape = newShape;
      return one('sparse_reset_shape', args, {
        output: { ...sp, sparse: { ...sp.sparse, dense_shape: newShape ?? box } },
      });
    });
  });
  return oracleProperty('sparse_reset_shape', cases);
}

/** sparse_fill_empty_rows: rows in increasing order, each with its input entries in input order or the default. */
function fillEmptyRows(): Property {
  const cases = fc.constantFrom(...ALL).chain((dtype) =>
    shapeArb(1, 3, 4)
      .map((s) => s.map((d, i) => (i > 0 ? Math.max(d, 1) : d)))
      .chain((shape) =>
        fc.tuple(anySparseArb(shape, dtype), anyValueArb(dtype)).map(([sp, def]) => {
          const indices: number[][] = [];
          const values: Value[] = [];
          const empty: boolean[] = [];
          for (let r = 0; r < shape[0]; r++) {
            const mine = sp.sparse.indices.flatMap((ix, i) => (ix[0] === r ? [i] : []));
            empty.push(mine.length === 0);
            if (mine.length === 0) {
              indices.push([r, ...shape.slice(1).map(() => 0)]);
              values.push(def);
            }
            for (const i of mine) {
              indices.push(sp.sparse.indices[i]);
              values.push(sp.sparse.values[i]);
            }
          }
          return one(
            'sparse_fill_empty_rows',
            { sp_input: sp, default_value: def },
            {
              output: st(indices, values, shape, dtype),
              empty_row_indicator: { dense: empty, shape: [shape[0]], dtype: 'bool' },
            },
          );
        }),
      ),
  );
  return oracleProperty('sparse_fill_empty_rows', cases);
}

/** sparse_transpose: the dense tensor transposed by perm, its stored positions read back in row-major order. */
function transpose(): Property {
  const cases = inputArb(ALL).chain((sp) => {
    const shape = sp.sparse.dense_shape;
    return fc.tuple(fc.oneof(fc.constant(null), permArb(shape.length)), fc.boolean()).map(([perm, explicitNull]) => {
      const p = perm ?? shape.map((_, d) => shape.length - 1 - d);
      const outShape = p.map((d) => shape[d]);
      const dense = new Map<number, Value>();
      sp.sparse.indices.forEach((ix, i) =>
        dense.set(
          offsetOf(
            p.map((d) => ix[d]),
            outShape,
          ),
          sp.sparse.values[i],
        ),
      );
      const indices: number[][] = [];
      const values: Value[] = [];
      for (let off = 0; off < sizeOf(outShape); off++) {
        if (!dense.has(off)) continue;
        indices.push(indexOf(off, outShape));
        values.push(dense.get(off)!);
      }
      const args: Record<string, unknown> = { sp_input: sp };
      if (perm !== null || explicitNull) args.perm = perm;
      return one('sparse_transpose', args, { output: st(indices, values, outShape, sp.dtype) });
    });
  });
  return oracleProperty('sparse_transpose', cases);
}

/** sparse_to_indicator: a dense bool tensor true exactly at [index[:-1], id] of every entry. */
function toIndicator(): Property {
  const cases = fc
    .tuple(fc.constantFrom(...IDS), shapeArb(1, 3, 4), fc.integer({ min: 0, max: 4 }))
    .chain(([dtype, shape, vocab]) =>
      (vocab === 0
        ? fc.constant(st([], [], shape, dtype))
        : anySparseArb(shape, dtype, { values: fc.integer({ min: 0, max: vocab - 1 }) })
      ).map((sp) => {
        const outShape = [...shape.slice(0, -1), vocab];
        const data = new Array<boolean>(sizeOf(outShape)).fill(false);
        sp.sparse.indices.forEach((ix, i) => {
          data[offsetOf([...ix.slice(0, -1), sp.sparse.values[i] as number], outShape)] = true;
        });
        return one(
          'sparse_to_indicator',
          { sp_input: sp, vocab_size: vocab },
          { output: { dense: nest(data, outShape), shape: outShape, dtype: 'bool' } },
        );
      }),
    );
  return oracleProperty('sparse_to_indicator', cases);
}

/**
 * sparse_merge, built backwards from its result: a random SparseTensor of shape prefix + vocab sizes is split into
 * ids (one SparseTensor per vocab dim, each entry at [prefix, k] with k its rank inside its prefix) and values, and
 * handed over in random order. The result is that tensor in row-major order, or the input order with already_sorted.
 */
function merge(): Property {
  const cases = fc
    .tuple(
      shapeArb(0, 2, 3),
      fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 2 }),
      fc.constantFrom(...IDS),
      fc.constantFrom(...ALL),
      fc.integer({ min: 0, max: 1 }),
    )
    .chain(([prefix, vocab, idType, valueType, extraK]) => {
      const outShape = [...prefix, ...vocab];
      const positions = Array.from({ length: sizeOf(outShape) }, (_, i) => i);
      return fc.subarray(positions).chain((chosen) =>
        fc
          .tuple(
            permArb(chosen.length),
            fc.array(anyValueArb(valueType), { minLength: chosen.length, maxLength: chosen.length }),
            fc.boolean(),
            fc.boolean(),
            fc.boolean(),
          )
          .map(([order, vals, alreadySorted, asList, explicitFlag]) => {
            const out = chosen.map((off) => indexOf(off, outShape));
            const given = order.map((i) => out[i]);
            const givenVals = order.map((i) => vals[i]);
            // Each entry's place in the last dim of sp_ids: its rank among the entries of its prefix, in input order.
            const seen = new Map<string, number>();
            const k = given.map((ix) => {
              const key = ix.slice(0, prefix.length).join(',');
              const c = seen.get(key) ?? 0;
              seen.set(key, c + 1);
              return c;
            });
            const K = Math.max(0, ...seen.values()) + extraK;
            const idIndices = given.map((ix, i) => [...ix.slice(0, prefix.length), k[i]]);
            const ids = vocab.map((_, j) =>
              st(
                idIndices,
                given.map((ix) => ix[prefix.length + j]),
                [...prefix, K],
                idType,
              ),
            );
            const single = vocab.length === 1 && !asList;
            const expected = alreadySorted
              ? st(given, givenVals, outShape, valueType)
              : st(out, vals, outShape, valueType);
            const args: Record<string, unknown> = {
              sp_ids: single ? ids[0] : ids,
              sp_values: st(idIndices, givenVals, [...prefix, K], valueType),
              vocab_size: single ? vocab[0] : vocab,
            };
            if (alreadySorted || explicitFlag) args.already_sorted = alreadySorted;
            return one('sparse_merge', args, { output: expected });
          }),
      );
    });
  return oracleProperty('sparse_merge', cases);
}

/** Properties of the moving ops against a dense oracle. */
export const MOVING_PROPERTIES: Property[] = [
  retain(),
  resetShape(),
  fillEmptyRows(),
  transpose(),
  toIndicator(),
  merge(),
];
