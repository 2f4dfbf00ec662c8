import fc from 'fast-check';
import type { Case } from '../../src/index.js';
import { FLOATS, NUMERIC } from './arbitraries.js';
import { oracleProperty, type Property } from './property.js';
import { denseForm, inDType, sizeOf, type NumericDType } from './grid.js';
import { dimArb, exactValueArb, segmentIdsArb } from './math-arbitraries.js';

// The sparse segment reductions against a dense oracle: for each segment, the selected rows added up, then their
// mean or their sum over the square root of their count; with num_segments, that many rows.

type SegmentOp = 'sparse_segment_sum' | 'sparse_segment_mean' | 'sparse_segment_sqrt_n';

interface SegmentInput {
  dtype: NumericDType;
  shape: number[];
  data: number[];
  indices: number[];
  ids: number[];
  indexDType: 'int32' | 'int64';
  idDType: 'int32' | 'int64';
  /** null: the last id + 1 rows. */
  numSegments: number | null;
}

/** Valid input: data of rank 1..3, indices into its rows (any order, repeats), sorted ids, num_segments or null. */
const segmentInputArb = (dtypes: NumericDType[]): fc.Arbitrary<SegmentInput> =>
  fc
    .record({
      dtype: fc.constantFrom(...dtypes),
      shape: fc.array(dimArb, { minLength: 1, maxLength: 3 }),
      n: fc.integer({ min: 0, max: 6 }),
      indexDType: fc.constantFrom('int32' as const, 'int64' as const),
      idDType: fc.constantFrom('int32' as const, 'int64' as const),
      extraRows: fc.option(fc.integer({ min: 0, max: 2 })),
    })
    .chain(({ dtype, shape, n, indexDType, idDType, extraRows }) => {
      const count = shape[0] === 0 ? 0 : n;
      return fc
        .record({
          data: fc.array(exactValueArb(dtype), { minLength: sizeOf(shape), maxLength: sizeOf(shape) }),
          indices: fc.array(fc.integer({ min: 0, max: Math.max(shape[0] - 1, 0) }), {
            minLength: count,
            maxLength: count,
          }),
          ids: segmentIdsArb(count),
        })
        .map((r) => {
          const last = r.ids.length === 0 ? -1 : r.ids[r.ids.length - 1];
          const numSegments = extraRows === null ? null : last + 1 + extraRows;
          return { dtype, shape, indexDType, idDType, numSegments, ...r };
        });
    });

const segmentArgs = (s: SegmentInput) => ({
  data: denseForm(s.data, s.shape, s.dtype),
  indices: { dense: s.indices, shape: [s.indices.length], dtype: s.indexDType },
  segment_ids: { dense: s.ids, shape: [s.ids.length], dtype: s.idDType },
  num_segments: s.numSegments,
});

/** For each segment, its rows summed, then (mean, sqrt_n) divided by the count or its square root; empty: 0. */
function reductions(op: SegmentOp, dtypes: NumericDType[]): fc.Arbitrary<Case> {
  return segmentInputArb(dtypes).map((s) => {
    const inner = sizeOf(s.shape.slice(1));
    const rows = s.numSegments ?? (s.ids.length === 0 ? 0 : s.ids[s.ids.length - 1] + 1);
    const out: number[] = [];
    for (let seg = 0; seg < rows; seg++) {
      const members = s.ids.flatMap((id, i) => (id === seg ? [i] : []));
      const divisor = op === 'sparse_segment_mean' ? members.length : Math.sqrt(members.length);
      for (let j = 0; j < inner; j++) {
        const sum = members.reduce((acc, i) => acc + s.data[s.indices[i] * inner + j], 0);
        const v = op === 'sparse_segment_sum' || members.length === 0 ? sum : sum / divisor;
        out.push(inDType(v + 0, s.dtype));
      }
    }
    const c: Case = {
      op,
      name: 'property',
      args: segmentArgs(s),
      expect: { output: denseForm(out, [rows, ...s.shape.slice(1)], s.dtype) },
    };
    return c;
  });
}

/**
 * One defect (an index out of range, a decreasing or negative id, a length mismatch, an id not below
 * num_segments), named in the error.
 */
function errors(op: SegmentOp, dtypes: NumericDType[]): fc.Arbitrary<Case> {
  return segmentInputArb(dtypes)
    .filter((s) => s.indices.length >= 1)
    .chain((s) =>
      fc.tuple(
        fc.constant(s),
        fc.constantFrom('index', 'decreasing', 'length', 'num_segments'),
        fc.nat(),
        fc.integer({ min: 0, max: 3 }),
      ),
    )
    .map(([s, kind, pick, extra]) => {
      const n = s.indices.length;
      const bad = { ...s, indices: [...s.indices], ids: [...s.ids] };
      let match: string;
      if (kind === 'index' || n < 2) {
        const p = pick % n;
        bad.indices[p] = extra % 2 === 0 ? s.shape[0] + extra : -1 - extra;
        match = `indices\\[${p}\\] = ${bad.indices[p]} is out of range \\[0, ${s.shape[0]}\\)`;
      } else if (kind === 'decreasing') {
        const p = 1 + (pick % (n - 1));
        const v = s.ids[p - 1] - 1 - extra;
        bad.ids[p] = v;
        match =
          v < 0
            ? `segment_ids\\[${p}\\] = ${v} is negative`
            : `segment_ids\\[${p}\\] = ${v} is less than segment_ids\\[${p - 1}\\]`;
      } else if (kind === 'length') {
        bad.ids.push(s.ids[n - 1] + extra);
        match = `segment_ids has ${n + 1} elements but indices has ${n}`;
      } else {
        bad.numSegments = s.ids[n - 1] - (extra % (s.ids[n - 1] + 1));
        const p = s.ids.findIndex((id) => id >= bad.numSegments!);
        match = `segment_ids\\[${p}\\] = ${s.ids[p]} is out of range \\[0, ${bad.numSegments}\\)`;
      }
      const c: Case = {
        op,
        name: 'property_error',
        args: segmentArgs(bad),
        expect_error: { kind: 'InvalidArgument', match },
      };
      return c;
    });
}

const property = (op: SegmentOp, dtypes: NumericDType[]): Property =>
  oracleProperty(op, fc.oneof(reductions(op, dtypes), errors(op, dtypes)));

/** The segment reductions against a dense oracle: sum of every numeric dtype, mean and sqrt_n of the floats. */
export const SEGMENT_PROPERTIES: Property[] = [
  property('sparse_segment_sum', NUMERIC),
  property('sparse_segment_mean', FLOATS),
  property('sparse_segment_sqrt_n', FLOATS),
];
