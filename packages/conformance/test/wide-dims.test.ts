import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  SparseTensor,
  UnimplementedError,
  createRuntime,
  listBackends,
  type Runtime,
  type SparseTensorValue,
} from '@sparse/runtime';

// Dims past 2^53 - 1 (TensorFlow's are int64, up to 2^63 - 1). A random matrix of C columns is spread over a
// column dim WIDE by a map that keeps order (SPREAD: the first columns stay small, the rest land past 2^53), and
// every op must give the small matrix's result spread the same way: ops that only compare indices run on
// stand-ins for those dims, which this shows to be invisible. The exact ops (reshape, slice) are checked against
// their arithmetic done here in BigInt.

const RUNS = Number(process.env.PROPERTY_RUNS ?? 100) / 4;
const C = 6;
// Past every SPREAD column, and small enough that a concat of two 3-row matrices (6 × WIDE) counts within int64.
const WIDE = 21n * 2n ** 56n + 7n;
const SPREAD = (c: number): bigint => (c < 2 ? BigInt(c) : BigInt(c) * 2n ** 58n + 3n);

type Json = SparseTensorValue;
const int64 = (v: bigint): number | string => (Number.isSafeInteger(Number(v)) ? Number(v) : String(v));

/** A small sparse matrix: rows, and distinct (row, column) entries with small integral float32 values. */
const matrixArb = fc.integer({ min: 1, max: 3 }).chain((rows) =>
  fc
    .uniqueArray(fc.tuple(fc.nat(rows - 1), fc.nat(C - 1)), {
      maxLength: rows * C,
      selector: ([r, c]) => r * C + c,
    })
    .chain((cells) =>
      fc.record({
        rows: fc.constant(rows),
        cells: fc.constant(cells),
        values: fc.array(fc.integer({ min: -9, max: 9 }), { minLength: cells.length, maxLength: cells.length }),
      }),
    ),
);
type Matrix = { rows: number; cells: [number, number][]; values: number[] };

const small = (m: Matrix) => new SparseTensor(m.cells, m.values, [m.rows, C], 'float32');
const wide = (m: Matrix) =>
  new SparseTensor(
    m.cells.map(([r, c]) => [r, SPREAD(c)]),
    m.values,
    [m.rows, WIDE],
    'float32',
  );

/** A small result's plain form with dim `d` spread (its dense shape WIDE, its indices through SPREAD). */
function spread(x: SparseTensor, d: number): Json {
  const j = x.toJSON();
  return {
    ...j,
    indices: j.indices.map((row) => row.map((v, k) => (k === d ? int64(SPREAD(Number(v))) : v))),
    dense_shape: j.dense_shape.map((v, k) => (k === d ? int64(WIDE) : v)),
  };
}

// Each op, on a small matrix and on its spread form, and which dim of its result is the spread one. Through
// rt.sparseAsync, which every backend has and an asynchronous one (webgpu) needs.
type Run = (s: Runtime['sparseAsync'], x: SparseTensor, y: SparseTensor) => Promise<SparseTensor>;
const COMPARED: { op: string; run: Run; dim: number }[] = [
  { op: 'sparse_reorder', run: (s, x) => s.reorder(x), dim: 1 },
  { op: 'sparse_transpose', run: (s, x) => s.transpose(x), dim: 0 },
  {
    op: 'sparse_add',
    run: async (s, x, y) => (await s.add(await s.reorder(x), await s.reorder(y))) as SparseTensor,
    dim: 1,
  },
  { op: 'sparse_maximum', run: async (s, x, y) => s.maximum(await s.reorder(x), await s.reorder(y)), dim: 1 },
  { op: 'sparse_reduce_sum_sparse', run: (s, x) => s.reduceSumSparse(x, { axis: 0 }), dim: 0 },
  { op: 'sparse_softmax', run: async (s, x) => s.softmax(await s.reorder(x)), dim: 1 },
  { op: 'sparse_concat', run: (s, x, y) => s.concat(0, [x, y]), dim: 1 },
  { op: 'sparse_fill_empty_rows', run: async (s, x) => (await s.fillEmptyRows(await s.reorder(x), -1)).output, dim: 1 },
  { op: 'sparse_expand_dims', run: (s, x) => s.expandDims(x, { axis: 0 }), dim: 2 },
];

for (const backend of listBackends()) {
  describe(`dims past 2^53 - 1 on ${backend}`, () => {
    for (const { op, run, dim } of COMPARED) {
      it(`${op} gives the small result, spread`, async () => {
        const s = (await createRuntime({ backend })).sparseAsync;
        await fc.assert(
          fc.asyncProperty(matrixArb, matrixArb, async (a, b) => {
            const [sa, sb] = [small(a), small(b.rows === a.rows ? b : { ...a, values: a.values.map((v) => -v) })];
            const [wa, wb] = [wide(a), wide(b.rows === a.rows ? b : { ...a, values: a.values.map((v) => -v) })];
            expect((await run(s, wa, wb)).toJSON()).toEqual(spread(await run(s, sa, sb), dim));
          }),
          { numRuns: RUNS },
        );
      });
    }

    it('sparse_reshape computes each position exactly', async () => {
      const s = (await createRuntime({ backend })).sparseAsync;
      await fc.assert(
        fc.asyncProperty(matrixArb, async (m) => {
          const got = await s.reshape(wide(m), [-1]);
          const want = m.cells.map(([r, c]) => [int64(BigInt(r) * WIDE + SPREAD(c))]);
          expect(got.toJSON().indices).toEqual(want);
          expect(got.exactShape).toEqual([BigInt(m.rows) * WIDE]);
          // And back: the row-major positions, read in the old shape again.
          expect((await s.reshape(got, [m.rows, WIDE])).toJSON()).toEqual(wide(m).toJSON());
        }),
        { numRuns: RUNS },
      );
    });

    it('sparse_slice keeps the box exactly', async () => {
      const s = (await createRuntime({ backend })).sparseAsync;
      await fc.assert(
        fc.asyncProperty(matrixArb, fc.nat(C - 1), fc.nat(C - 1), async (m, c0, c1) => {
          const [lo, hi] = [Math.min(c0, c1), Math.max(c0, c1)];
          const got = await s.slice(wide(m), [0, SPREAD(lo)], [m.rows, SPREAD(hi) - SPREAD(lo)]);
          const kept = m.cells.map((cell, i) => ({ cell, i })).filter(({ cell: [, c] }) => c >= lo && c < hi);
          expect(got.toJSON().indices).toEqual(kept.map(({ cell: [r, c] }) => [r, int64(SPREAD(c) - SPREAD(lo))]));
          expect(Array.from(got.values)).toEqual(kept.map(({ i }) => m.values[i]));
          expect(got.exactShape).toEqual([BigInt(m.rows), SPREAD(hi) - SPREAD(lo)]);
        }),
        { numRuns: RUNS },
      );
    });
  });
}

describe('a SparseTensor with a dim past 2^53 - 1', () => {
  const st = () =>
    new SparseTensor(
      [
        [0, '9007199254740993'],
        [1, 2],
      ],
      [1, 2],
      [2, String(WIDE)],
      'int32',
    );

  it('holds it exactly and refuses to round it into a number', () => {
    expect(st().exactShape).toEqual([2n, WIDE]);
    expect(Array.from(st().exactIndexData)).toEqual([0n, 2n ** 53n + 1n, 1n, 2n]);
    for (const read of [() => st().denseShape, () => st().shape, () => st().indices, () => st().indexData]) {
      expect(read).toThrow(InvalidArgumentError);
      expect(read).toThrow(/past 2\^53 - 1.*read exact/);
    }
    expect(SparseTensor.fromJSON(st().toJSON()).toJSON()).toEqual(st().toJSON());
    expect(st().toJSON().dense_shape).toEqual([2, String(WIDE)]);
    expect(st().withValues([5, 6]).exactShape).toEqual([2n, WIDE]);
  });

  it('names exact values in errors, never the stand-ins the kernels saw', async () => {
    const rt = await createRuntime();
    expect(() => rt.sparse.resetShape(st(), { newShape: [2, 5] })).toThrow(
      /new_shape\[1\] = 5 is smaller than dim 1 of sp_input's dense shape \[2,1513209474796486663\]/,
    );
    const out = new SparseTensor([[0, String(WIDE)]], [1], [1, String(WIDE)], 'int32');
    expect(() => rt.sparse.reorder(out)).toThrow(/indices\[0\] = \[0,1513209474796486663\] is out of bounds/);
    const unordered = new SparseTensor(
      [
        [1, 2],
        [0, '9007199254740993'],
      ],
      [1, 2],
      [2, String(WIDE)],
      'int32',
    );
    expect(() => rt.sparse.softmax(unordered.withValues([1, 2], 'float32'))).toThrow(
      /indices\[1\] = \[0,9007199254740993\] is out of order/,
    );
  });

  it('is refused where an op would compute with the dim: along the axis of a concat or split', async () => {
    const rt = await createRuntime();
    expect(() => rt.sparse.concat(1, [st(), st()])).toThrow(UnimplementedError);
    expect(() => rt.sparse.split(1, 2, st())).toThrow(/axis = 1 picks a dim of 1513209474796486663/);
    expect(rt.sparse.split(0, 2, st()).map((x) => x.exactShape)).toEqual([
      [1n, WIDE],
      [1n, WIDE],
    ]);
  });
});
