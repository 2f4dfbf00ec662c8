import fc from 'fast-check';
import type { Case } from '../../src/index.js';
import { FLOATS, NUMERIC, shapeArb, sparseArb, valueArb } from './arbitraries.js';
import { oracleProperty, type Property } from './property.js';
import { inDType, nest, offsetOf, sizeOf, toGrid, type NumericDType, type SparseForm } from './grid.js';
import { exactValueArb, looseSparseArb, matrixArb, segmentIdsArb } from './math-arbitraries.js';

// The math ops against dense oracles: softmax row by row of the densified input, matmul as the naive triple
// loop over densified operands, segment_sum as a sum per segment over the selected rows.

const one = (op: string, args: Record<string, unknown>, output: unknown): Case => ({
  op,
  name: 'property',
  args,
  expect: { output },
});
const dense = (data: number[], shape: number[], dtype: string) => ({ dense: nest(data, shape), shape, dtype });
/** A dim of 1..4, or 0 once in six times. */
const dimArb = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 4 }) },
  { weight: 1, arbitrary: fc.constant(0) },
);

/** softmax: densify; along each innermost row, softmax over the stored positions only; read back in input order. */
function softmax(): Property {
  const values = (dtype: NumericDType) =>
    fc.oneof({ weight: 4, arbitrary: valueArb(dtype) }, { weight: 1, arbitrary: fc.constantFrom(1000, -1000, 999.5) });
  const cases = fc.constantFrom(...FLOATS).chain((dtype) =>
    shapeArb(2, 3, 4).chain((shape) =>
      sparseArb(shape, dtype, { values: values(dtype) }).map((sp) => {
        const g = toGrid(sp);
        const c = shape[shape.length - 1];
        const out = new Array<number>(g.data.length).fill(0);
        for (let row = 0; row * c < g.data.length; row++) {
          const cols = Array.from({ length: c }, (_, j) => row * c + j).filter((off) => g.stored[off]);
          if (cols.length === 0) continue;
          const max = Math.max(...cols.map((off) => g.data[off]));
          const sum = cols.reduce((s, off) => s + Math.exp(g.data[off] - max), 0);
          for (const off of cols) out[off] = Math.exp(g.data[off] - max) / sum;
        }
        const result = sp.sparse.indices.map((ix) => inDType(out[offsetOf(ix, shape)], dtype));
        return one('sparse_softmax', { sp_input: sp }, { ...sp, sparse: { ...sp.sparse, values: result } });
      }),
    ),
  );
  return oracleProperty('sparse_softmax', cases);
}

/** The dense row-major form of a sparse operand, repeated indices added up. */
function densifyAdding(sp: SparseForm): number[] {
  const shape = sp.sparse.dense_shape;
  const out = new Array<number>(sizeOf(shape)).fill(0);
  sp.sparse.indices.forEach((ix, i) => (out[offsetOf(ix, shape)] += sp.sparse.values[i]));
  return out;
}

/** matmul: op(A) · op(B) by the triple loop, with either operand sparse (any order, repeats adding up). */
function matmul(): Property {
  const cases = fc
    .record({
      dtype: fc.constantFrom(...NUMERIC),
      m: dimArb,
      k: dimArb,
      n: dimArb,
      adjA: fc.boolean(),
      adjB: fc.boolean(),
      sparseLeft: fc.boolean(),
    })
    .chain(({ dtype, m, k, n, adjA, adjB, sparseLeft }) => {
      const aShape: [number, number] = adjA ? [k, m] : [m, k];
      const bShape: [number, number] = adjB ? [n, k] : [k, n];
      const values = dtype === 'float64' ? valueArb(dtype) : exactValueArb(dtype);
      const operand = (shape: [number, number], sparse: boolean) =>
        sparse
          ? looseSparseArb(shape, dtype, values).map((sp) => ({ arg: sp as unknown, data: densifyAdding(sp) }))
          : matrixArb(shape, values).map((data) => ({ arg: dense(data, shape, dtype) as unknown, data }));
      return fc.tuple(operand(aShape, sparseLeft), operand(bShape, !sparseLeft)).map(([a, b]) => {
        const A = (i: number, t: number) => (adjA ? a.data[t * aShape[1] + i] : a.data[i * aShape[1] + t]);
        const B = (t: number, j: number) => (adjB ? b.data[j * bShape[1] + t] : b.data[t * bShape[1] + j]);
        const out: number[] = [];
        for (let i = 0; i < m; i++) {
          for (let j = 0; j < n; j++) {
            let s = 0;
            for (let t = 0; t < k; t++) s += A(i, t) * B(t, j);
            out.push(inDType(s + 0, dtype));
          }
        }
        return one(
          'sparse_tensor_dense_matmul',
          { sp_a: a.arg, b: b.arg, adjoint_a: adjA, adjoint_b: adjB },
          dense(out, [m, n], dtype),
        );
      });
    });
  return oracleProperty('sparse_tensor_dense_matmul', cases);
}

interface SegmentInput {
  dtype: NumericDType;
  shape: number[];
  data: number[];
  indices: number[];
  ids: number[];
  indexDType: 'int32' | 'int64';
  idDType: 'int32' | 'int64';
}

/** Valid sparse_segment_sum input: data of rank 1..3, indices into its rows (any order, repeats), sorted ids. */
const segmentInputArb: fc.Arbitrary<SegmentInput> = fc
  .record({
    dtype: fc.constantFrom(...NUMERIC),
    shape: fc.array(dimArb, { minLength: 1, maxLength: 3 }),
    n: fc.integer({ min: 0, max: 6 }),
    indexDType: fc.constantFrom('int32' as const, 'int64' as const),
    idDType: fc.constantFrom('int32' as const, 'int64' as const),
  })
  .chain(({ dtype, shape, n, indexDType, idDType }) => {
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
      .map((r) => ({ dtype, shape, indexDType, idDType, ...r }));
  });

const segmentArgs = (s: SegmentInput) => ({
  data: dense(s.data, s.shape, s.dtype),
  indices: { dense: s.indices, shape: [s.indices.length], dtype: s.indexDType },
  segment_ids: { dense: s.ids, shape: [s.ids.length], dtype: s.idDType },
});

/** segment_sum: for each segment id up to the last, the sum of the data rows its entries select. */
function segmentSums(): fc.Arbitrary<Case> {
  return segmentInputArb.map((s) => {
    const inner = sizeOf(s.shape.slice(1));
    const rows = s.ids.length === 0 ? 0 : s.ids[s.ids.length - 1] + 1;
    const out: number[] = [];
    for (let seg = 0; seg < rows; seg++) {
      for (let j = 0; j < inner; j++) {
        let sum = 0;
        s.ids.forEach((id, i) => {
          if (id === seg) sum += s.data[s.indices[i] * inner + j];
        });
        out.push(sum + 0);
      }
    }
    return one('sparse_segment_sum', segmentArgs(s), dense(out, [rows, ...s.shape.slice(1)], s.dtype));
  });
}

/** segment_sum errors: one defect (an index out of range, a decreasing or negative id, a length mismatch), named. */
function segmentSumErrors(): fc.Arbitrary<Case> {
  return segmentInputArb
    .filter((s) => s.indices.length >= 1)
    .chain((s) =>
      fc.tuple(
        fc.constant(s),
        fc.constantFrom('index', 'decreasing', 'length'),
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
      } else {
        bad.ids.push(s.ids[n - 1] + extra);
        match = `segment_ids has ${n + 1} elements but indices has ${n}`;
      }
      const c: Case = {
        op: 'sparse_segment_sum',
        name: 'property_error',
        args: segmentArgs(bad),
        expect_error: { kind: 'InvalidArgument', match },
      };
      return c;
    });
}

/** Properties of the math ops against a dense oracle. */
export const MATH_PROPERTIES: Property[] = [
  softmax(),
  matmul(),
  oracleProperty('sparse_segment_sum', fc.oneof(segmentSums(), segmentSumErrors())),
];
