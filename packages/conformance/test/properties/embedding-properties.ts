import fc from 'fast-check';
import type { Case } from '../../src/index.js';
import { FLOATS } from './arbitraries.js';
import { oracleProperty, type Property } from './property.js';
import { inDType, nest, sizeOf, type NumericDType } from './grid.js';
import { exactValueArb } from './math-arbitraries.js';

// The embedding lookups against a dense oracle: each row's ids listed with their weights, the embeddings summed in
// float64 and divided as the combiner says, then rounded to the dtype once. Values are quarters, so the sums are
// exact in float32 too; max_norm (whose norms are not) only on float64.

type Combiner = 'sum' | 'mean' | 'sqrtn';

interface Lookup {
  dtype: NumericDType;
  /** The embedding table: `vocab` rows of `rowShape`. */
  vocab: number;
  rowShape: number[];
  table: number[];
  combiner: Combiner;
  maxNorm: number | null;
  idDType: 'int32' | 'int64';
  weighted: boolean;
}

const lookupArb: fc.Arbitrary<Lookup> = fc
  .record({
    dtype: fc.constantFrom(...FLOATS),
    vocab: fc.integer({ min: 0, max: 4 }),
    rowShape: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 2 }),
    combiner: fc.constantFrom<Combiner>('sum', 'mean', 'sqrtn'),
    clip: fc.option(fc.constantFrom(0.5, 1, 2.5), { nil: null }),
    idDType: fc.constantFrom('int32' as const, 'int64' as const),
    weighted: fc.boolean(),
  })
  .chain(({ dtype, vocab, rowShape, clip, ...rest }) =>
    fc
      .array(exactValueArb(dtype), { minLength: vocab * sizeOf(rowShape), maxLength: vocab * sizeOf(rowShape) })
      .map((table) => ({ dtype, vocab, rowShape, table, maxNorm: dtype === 'float64' ? clip : null, ...rest })),
  );

/** The embedding of id `id`: its row of the table, scaled to an L2 norm of at most max_norm. */
function embedding(l: Lookup, id: number): number[] {
  const inner = sizeOf(l.rowShape);
  const row = l.table.slice(id * inner, (id + 1) * inner);
  if (l.maxNorm === null) return row;
  const norm = Math.sqrt(row.reduce((s, x) => s + x * x, 0));
  return row.map((x) => (x * l.maxNorm!) / Math.max(norm, l.maxNorm!));
}

/** One output row: the weighted embeddings of `entries` combined; a divisor of 0 gives zeros (div_no_nan). */
function combined(l: Lookup, entries: { id: number; w: number }[]): number[] {
  const inner = sizeOf(l.rowShape);
  const sum = new Array<number>(inner).fill(0);
  for (const { id, w } of entries) embedding(l, id).forEach((x, j) => (sum[j] += x * w));
  const d =
    l.combiner === 'sum'
      ? 1
      : l.combiner === 'mean'
        ? entries.reduce((s, e) => s + e.w, 0)
        : Math.sqrt(entries.reduce((s, e) => s + e.w * e.w, 0));
  return sum.map((x) => (d === 0 ? 0 : x / d));
}

const tableArg = (l: Lookup) => {
  const shape = [l.vocab, ...l.rowShape];
  return { dense: nest(l.table, shape), shape, dtype: l.dtype };
};
const sparseArg = (indices: number[][], values: number[], shape: number[], dtype: string) => ({
  sparse: { indices, values, dense_shape: shape },
  dtype,
});
const output = (l: Lookup, rows: number[][], batch: number[]) => {
  const shape = [...batch, ...l.rowShape];
  return {
    dense: nest(
      rows.flat().map((x) => inDType(x + 0, l.dtype)),
      shape,
    ),
    shape,
    dtype: l.dtype,
  };
};

/** embedding_lookup_sparse: batch rows of 0..3 ids each, in row order; one output row per row up to the last with ids. */
function lookups(): fc.Arbitrary<Case> {
  return lookupArb.chain((l) =>
    fc
      .array(
        fc.array(fc.record({ id: fc.nat({ max: Math.max(l.vocab - 1, 0) }), w: exactValueArb(l.dtype) }), {
          maxLength: l.vocab === 0 ? 0 : 3,
        }),
        { minLength: 1, maxLength: 4 },
      )
      .map((batch) => {
        const entries = batch.flatMap((row, r) => row.map((e, j) => ({ ...e, index: [r, j], r })));
        const rows = entries.length === 0 ? 0 : entries[entries.length - 1].r + 1;
        const w = (e: { w: number }) => (l.weighted ? e.w : 1);
        const out = Array.from({ length: rows }, (_, r) =>
          combined(
            l,
            entries.filter((e) => e.r === r).map((e) => ({ id: e.id, w: w(e) })),
          ),
        );
        const shape = [batch.length, 3];
        const c: Case = {
          op: 'embedding_lookup_sparse',
          name: 'property',
          args: {
            params: tableArg(l),
            sp_ids: sparseArg(
              entries.map((e) => e.index),
              entries.map((e) => e.id),
              shape,
              l.idDType,
            ),
            sp_weights: l.weighted
              ? sparseArg(
                  entries.map((e) => e.index),
                  entries.map((e) => e.w),
                  shape,
                  l.dtype,
                )
              : null,
            combiner: l.combiner,
            max_norm: l.maxNorm,
          },
          expect: { output: output(l, out, [rows]) },
        };
        return c;
      }),
  );
}

/**
 * safe_embedding_lookup_sparse: ids of rank 1..3 at random positions in any order (repeats allowed), some below 0,
 * weights of any sign; the ids TensorFlow keeps combined per row (every index without its last coordinate), a row
 * left without ids given the default embedding or zeros.
 */
function safeLookups(): fc.Arbitrary<Case> {
  return lookupArb
    .filter((l) => l.vocab > 0)
    .chain((l) =>
      fc
        .record({
          shape: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }),
          defaultId: fc.option(fc.nat({ max: l.vocab - 1 }), { nil: null }),
        })
        .chain(({ shape, defaultId }) =>
          fc
            .array(
              fc.record({
                at: fc.nat({ max: sizeOf(shape) - 1 }),
                id: fc.integer({ min: -2, max: l.vocab - 1 }),
                w: exactValueArb(l.dtype),
              }),
              { maxLength: 8 },
            )
            .map((entries) => {
              const last = shape[shape.length - 1];
              const batch = shape.slice(0, -1);
              const rows = sizeOf(batch);
              const indexOf = (at: number) => {
                const ix: number[] = [];
                for (let k = shape.length - 1, rest = at; k >= 0; k--) {
                  ix.unshift(rest % shape[k]);
                  rest = Math.floor(rest / shape[k]);
                }
                return ix;
              };
              const kept = entries.filter((e) => e.id >= 0 && !(l.weighted && l.combiner !== 'sum' && !(e.w > 0)));
              const out = Array.from({ length: rows }, (_, r) => {
                const mine = kept.filter((e) => Math.floor(e.at / last) === r);
                if (mine.length > 0)
                  return combined(
                    l,
                    mine.map((e) => ({ id: e.id, w: l.weighted ? e.w : 1 })),
                  );
                return defaultId === null ? new Array<number>(sizeOf(l.rowShape)).fill(0) : embedding(l, defaultId);
              });
              const indices = entries.map((e) => indexOf(e.at));
              const c: Case = {
                op: 'safe_embedding_lookup_sparse',
                name: 'property',
                args: {
                  embedding_weights: tableArg(l),
                  sparse_ids: sparseArg(
                    indices,
                    entries.map((e) => e.id),
                    shape,
                    l.idDType,
                  ),
                  sparse_weights: l.weighted
                    ? sparseArg(
                        indices,
                        entries.map((e) => e.w),
                        shape,
                        l.dtype,
                      )
                    : null,
                  combiner: l.combiner,
                  default_id: defaultId,
                  max_norm: l.maxNorm,
                },
                expect: { output: output(l, out, batch) },
              };
              return c;
            }),
        ),
    );
}

/** Properties of the embedding lookups against a dense oracle. */
export const EMBEDDING_PROPERTIES: Property[] = [
  oracleProperty('embedding_lookup_sparse', lookups()),
  oracleProperty('safe_embedding_lookup_sparse', safeLookups()),
];
