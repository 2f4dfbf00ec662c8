import fc from 'fast-check';
import type { Case } from '../../src/index.js';
import { FLOATS, NUMERIC, broadcastShapeArb, shapeArb, sparseArb, valueArb } from './arbitraries.js';
import { fromGrid, inDType, indexOf, nest, offsetOf, sizeOf, toGrid, type Grid, type NumericDType } from './grid.js';

/** A property: random cases of one op, each with the result a dense oracle computed for it. */
export interface Property {
  op: string;
  cases: fc.Arbitrary<Case>;
}

type Binary = (a: number, b: number, dtype: NumericDType) => number;
const isInt = (dtype: NumericDType) => dtype === 'int32' || dtype === 'int64';
const dense = (data: number[], shape: number[], dtype: NumericDType) => ({ dense: nest(data, shape), shape, dtype });
const one = (op: string, args: Record<string, unknown>, output: unknown): Case => ({
  op,
  name: 'property',
  args,
  expect: { output },
});

/** cwise: f(stored value, dense value broadcast to it) at every stored entry; the indices stay in their order. */
function cwise(
  op: string,
  f: Binary,
  dtypes: NumericDType[],
  denseValues: (dt: NumericDType) => fc.Arbitrary<number> = (dt) => valueArb(dt),
): Property {
  const cases = fc.constantFrom(...dtypes).chain((dtype) =>
    shapeArb().chain((shape) =>
      fc
        .tuple(
          sparseArb(shape, dtype, { unordered: true }),
          broadcastShapeArb(shape).chain((bs) =>
            fc.tuple(fc.constant(bs), fc.array(denseValues(dtype), { minLength: sizeOf(bs), maxLength: sizeOf(bs) })),
          ),
        )
        .map(([sp, [bs, data]]) => {
          const lead = shape.length - bs.length;
          const values = sp.sparse.indices.map((ix, i) => {
            const at = offsetOf(
              ix.slice(lead).map((x, d) => (bs[d] === 1 ? 0 : x)),
              bs,
            );
            return inDType(f(sp.sparse.values[i], data[at], dtype), dtype);
          });
          return one(op, { sp_input: sp, dense: dense(data, bs, dtype) }, { ...sp, sparse: { ...sp.sparse, values } });
        }),
    ),
  );
  return { op, cases };
}

/** merge: the union of two canonically ordered operands, a missing side read as 0; `keep` may drop a both-held entry. */
function merge(op: string, names: [string, string], f: Binary, withThresh = false): Property {
  const cases = fc.constantFrom(...NUMERIC).chain((dtype) =>
    shapeArb().chain((shape) =>
      fc.tuple(sparseArb(shape, dtype), sparseArb(shape, dtype), fc.constantFrom(0, 1, 2.5)).map(([a, b, t]) => {
        const thresh = isInt(dtype) ? Math.floor(t) : t;
        const [ga, gb] = [toGrid(a), toGrid(b)];
        const out: Grid = {
          shape,
          data: ga.data.map((x, i) => inDType(f(x, gb.data[i], dtype), dtype)),
          stored: ga.stored.map((s, i) => s || gb.stored[i]),
        };
        if (withThresh)
          out.stored = out.stored.map(
            (s, i) => s && !(ga.stored[i] && gb.stored[i] && !(thresh <= Math.abs(out.data[i]))),
          );
        const args: Record<string, unknown> = { [names[0]]: a, [names[1]]: b };
        if (withThresh) args.thresh = thresh;
        return one(op, args, fromGrid(out, dtype));
      }),
    ),
  );
  return { op, cases };
}

/** sparse_add with one dense operand: the dense sum, in either order. */
function addDense(): Property {
  const cases = fc.constantFrom(...NUMERIC).chain((dtype) =>
    shapeArb().chain((shape) =>
      fc
        .tuple(
          sparseArb(shape, dtype, { unordered: false }),
          fc.array(valueArb(dtype), { minLength: sizeOf(shape), maxLength: sizeOf(shape) }),
          fc.boolean(),
        )
        .map(([sp, data, sparseFirst]) => {
          const g = toGrid(sp);
          const sum = data.map((x, i) => inDType(g.data[i] + x, dtype));
          const d = dense(data, shape, dtype);
          return one('sparse_add', sparseFirst ? { a: sp, b: d } : { a: d, b: sp }, dense(sum, shape, dtype));
        }),
    ),
  );
  return { op: 'sparse_add', cases };
}

type Reducer = (values: number[], dtype: NumericDType) => number;

/** reduce: each group of the kept dims reduces its stored values only; an empty group is 0 (dense) or absent (sparse). */
function reduce(
  op: string,
  r: Reducer,
  output: 'dense' | 'sparse',
  values?: (dt: NumericDType) => fc.Arbitrary<number>,
): Property {
  const cases = fc.constantFrom(...NUMERIC).chain((dtype) =>
    shapeArb(1, 3, 3).chain((shape) =>
      fc
        .tuple(
          sparseArb(shape, dtype, { unordered: true, values: values?.(dtype) }),
          fc.oneof(
            fc.constant(null),
            fc.integer({ min: -shape.length, max: shape.length - 1 }),
            fc
              .subarray(
                shape.map((_, d) => d),
                { minLength: 1 },
              )
              .chain((axes) => fc.tuple(...axes.map((a) => fc.constantFrom(a, a - shape.length)))),
          ),
          fc.boolean(),
        )
        .map(([sp, axis, keepdims]) => {
          const rank = shape.length;
          const reduced = new Set(
            (axis === null ? shape.map((_, d) => d) : typeof axis === 'number' ? [axis] : axis).map(
              (a) => (a + rank) % rank,
            ),
          );
          const outShape = keepdims
            ? shape.map((d, i) => (reduced.has(i) ? 1 : d))
            : shape.filter((_, i) => !reduced.has(i));
          const groups = new Map<number, number[]>();
          const g = toGrid(sp);
          g.stored.forEach((s, off) => {
            if (!s) return;
            const ix = indexOf(off, shape);
            const key = offsetOf(
              keepdims ? ix.map((x, i) => (reduced.has(i) ? 0 : x)) : ix.filter((_, i) => !reduced.has(i)),
              outShape,
            );
            groups.set(key, [...(groups.get(key) ?? []), g.data[off]]);
          });
          const size = sizeOf(outShape);
          const out: Grid = {
            shape: outShape,
            data: new Array<number>(size).fill(0),
            stored: new Array<boolean>(size).fill(false),
          };
          for (const [key, vals] of groups) {
            out.data[key] = r(vals, dtype);
            out.stored[key] = true;
          }
          const expect = output === 'dense' ? dense(out.data, outShape, dtype) : fromGrid(out, dtype);
          return one(op, { sp_input: sp, axis, keepdims }, expect);
        }),
    ),
  );
  return { op, cases };
}

/** map: f of every stored value; indices and their order stay. */
function map(op: string, f: (x: number) => number, dtypes: NumericDType[]): Property {
  const cases = fc
    .constantFrom(...dtypes)
    .chain((dtype) =>
      shapeArb().chain((shape) =>
        sparseArb(shape, dtype, { unordered: true }).map((sp) =>
          one(
            op,
            { sp_input: sp },
            { ...sp, sparse: { ...sp.sparse, values: sp.sparse.values.map((x) => inDType(f(x), dtype)) } },
          ),
        ),
      ),
    );
  return { op, cases };
}

const fold = (step: (acc: number, x: number) => number) => (vals: number[], dtype: NumericDType) =>
  vals.slice(1).reduce((acc, x) => inDType(step(acc, x), dtype), vals[0]);

export const FAMILY_PROPERTIES: Property[] = [
  cwise('sparse_dense_cwise_mul', (a, b) => a * b, NUMERIC),
  cwise('sparse_dense_cwise_add', (a, b) => a + b, NUMERIC),
  cwise(
    'sparse_dense_cwise_div',
    (a, b, dt) => (isInt(dt) ? Math.trunc(a / b) : a / b),
    NUMERIC,
    (dt) => valueArb(dt, { nonZero: true }),
  ),
  cwise(
    'sparse_dense_cwise_pow',
    (a, b) => a ** b,
    NUMERIC,
    (dt) => valueArb(dt, { min: 0, max: 3 }),
  ),
  merge('sparse_add', ['a', 'b'], (a, b) => a + b, true),
  addDense(),
  merge('sparse_maximum', ['sp_a', 'sp_b'], (a, b) => Math.max(a, b)),
  merge('sparse_minimum', ['sp_a', 'sp_b'], (a, b) => Math.min(a, b)),
  ...(['dense', 'sparse'] as const).flatMap((out) => {
    const suffix = out === 'sparse' ? '_sparse' : '';
    return [
      reduce(
        `sparse_reduce_sum${suffix}`,
        fold((a, x) => a + x),
        out,
      ),
      reduce(`sparse_reduce_max${suffix}`, fold(Math.max), out),
      reduce(`sparse_reduce_min${suffix}`, fold(Math.min), out),
      reduce(
        `sparse_reduce_prod${suffix}`,
        fold((a, x) => a * x),
        out,
        (dt) => valueArb(dt, { min: -2, max: 2 }),
      ),
    ];
  }),
  map('sparse_abs', Math.abs, NUMERIC),
  map('sparse_neg', (x) => -x + 0, NUMERIC),
  map('sparse_square', (x) => x * x, NUMERIC),
  map('sparse_sqrt', Math.sqrt, FLOATS),
  map('sparse_sign', (x) => Math.sign(x) + 0, NUMERIC),
];
