import fc from 'fast-check';
import type { Case } from '../../src/index.js';
import { oracleProperty, type Property } from './property.js';
import { indexOf, offsetOf, sizeOf } from './grid.js';
import {
  ANY_DTYPES,
  anySparseArb,
  entryAt,
  gatherDense,
  type AnyDType,
  type AnySparse,
} from './reshaping-arbitraries.js';

// Each op of the reshaping family against the dense op it mirrors: the oracle walks every position of the dense
// result and reads the input position the dense op takes it from. Inputs come in any order; the ops that keep
// the input order (split, slice, reshape, expand_dims) must list entries in it, concat in canonical order.

const one = (op: string, args: Record<string, unknown>, output: unknown): Case => ({
  op,
  name: 'property',
  args,
  expect: { output },
});
/** A dim of 1..max, or 0 once in `weight + 1` times. */
const dim = (max = 3, weight = 5) =>
  fc.oneof({ weight, arbitrary: fc.integer({ min: 1, max }) }, { weight: 1, arbitrary: fc.constant(0) });
const dtypeArb = fc.constantFrom<AnyDType>(...ANY_DTYPES);
/** An axis in [0, n) and its spelling: as is, or counted from the end (negative). */
const axisArb = (n: number, negFrom = n) =>
  fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.boolean()).map(([a, neg]) => [a, neg ? a - negFrom : a] as const);

/** The value of `sp`'s entry at input position `index`, keyed for the output order, or null. */
function reader(sp: AnySparse, key: 'source' | 'output') {
  const at = entryAt(sp);
  const shape = sp.sparse.dense_shape;
  return (index: number[], outOffset: number) => {
    if (index.some((x, d) => x < 0 || x >= shape[d])) return null;
    const i = at[offsetOf(index, shape)];
    return i < 0 ? null : { index, value: sp.sparse.values[i], key: key === 'source' ? i : outOffset };
  };
}

/** concat: along the axis, output position p of input k is p - (sizes of inputs before k); canonical order. */
function concat(): Property {
  const cases = dtypeArb.chain((dtype) =>
    fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.boolean()).chain(([rank, k, expand]) =>
      fc.tuple(axisArb(rank), fc.array(dim(), { minLength: rank, maxLength: rank })).chain(([[axis, given], base]) =>
        fc
          .array(fc.tuple(dim(), fc.array(dim(), { minLength: rank, maxLength: rank })), { minLength: k, maxLength: k })
          .map((specs) => specs.map(([along, own]) => (expand ? own : base).map((d, j) => (j === axis ? along : d))))
          .chain((shapes) => fc.tuple(...shapes.map((s) => anySparseArb(s, dtype, { unordered: true }))))
          .map((inputs) => {
            const args = { axis: given, sp_inputs: inputs, expand_nonconcat_dim: expand };
            if (inputs.length === 1) return one('sparse_concat', args, inputs[0]); // tf.sparse.concat returns a lone input as it is
            const shapes = inputs.map((s) => s.sparse.dense_shape);
            const outShape = shapes[0].map((_, j) =>
              j === axis ? shapes.reduce((n, s) => n + s[j], 0) : Math.max(...shapes.map((s) => s[j])),
            );
            const reads = inputs.map((s) => reader(s, 'output'));
            const starts = shapes.map((_, i) => shapes.slice(0, i).reduce((n, s) => n + s[axis], 0));
            return one(
              'sparse_concat',
              args,
              gatherDense(outShape, dtype, (index, off) => {
                const i = starts.findIndex((s, q) => index[axis] >= s && index[axis] < s + shapes[q][axis]);
                if (i < 0) return null;
                return reads[i](
                  index.map((x, j) => (j === axis ? x - starts[i] : x)),
                  off,
                );
              }),
            );
          }),
      ),
    ),
  );
  return oracleProperty('sparse_concat', cases);
}

/** split: piece p covers [start_p, start_p + len_p) along the axis; the first size % n pieces are one longer. */
function split(): Property {
  const cases = dtypeArb.chain((dtype) =>
    fc.integer({ min: 1, max: 3 }).chain((rank) =>
      fc.tuple(axisArb(rank), fc.array(dim(4), { minLength: rank, maxLength: rank })).chain(([[axis, given], dims]) => {
        const shape = dims.map((d, j) => (j === axis ? Math.max(d, 1) : d));
        return fc
          .tuple(anySparseArb(shape, dtype, { unordered: true }), fc.integer({ min: 1, max: shape[axis] }))
          .map(([sp, n]) => {
            const size = shape[axis];
            const lens = Array.from({ length: n }, (_, p) => Math.floor(size / n) + (p < size % n ? 1 : 0));
            const read = reader(sp, 'source');
            const pieces = lens.map((len, p) => {
              const start = lens.slice(0, p).reduce((a, b) => a + b, 0);
              const outShape = shape.map((d, j) => (j === axis ? len : d));
              const from = (index: number[]) => index.map((x, j) => (j === axis ? x + start : x));
              return gatherDense(outShape, dtype, (index, off) => read(from(index), off));
            });
            return one('sparse_split', { axis: given, num_split: n, sp_input: sp }, pieces);
          });
      }),
    ),
  );
  return oracleProperty('sparse_split', cases);
}

/** slice: output position i is input position start + i, inside the part of the box that lies in the input. */
function slice(): Property {
  const cases = dtypeArb.chain((dtype) =>
    fc.integer({ min: 1, max: 3 }).chain((rank) =>
      fc.array(dim(4, 15), { minLength: rank, maxLength: rank }).chain((shape) =>
        fc
          .tuple(
            anySparseArb(shape, dtype, { unordered: true }),
            // Mostly boxes that start inside and hold something; sometimes past the end or empty.
            fc.tuple(
              ...shape.map((d) =>
                fc.oneof(
                  { weight: 15, arbitrary: fc.integer({ min: 0, max: Math.max(d - 1, 0) }) },
                  { weight: 1, arbitrary: fc.integer({ min: d, max: d + 2 }) },
                ),
              ),
            ),
            fc.tuple(
              ...shape.map(() =>
                fc.oneof(
                  { weight: 15, arbitrary: fc.integer({ min: 1, max: 4 }) },
                  { weight: 1, arbitrary: fc.constant(0) },
                ),
              ),
            ),
          )
          .map(([sp, start, size]) => {
            const outShape = shape.map((d, j) => Math.max(Math.min(start[j] + size[j], d) - start[j], 0));
            const read = reader(sp, 'source');
            const from = (index: number[]) => index.map((x, j) => x + start[j]);
            return one(
              'sparse_slice',
              { sp_input: sp, start, size },
              gatherDense(outShape, dtype, (index, off) => read(from(index), off)),
            );
          }),
      ),
    ),
  );
  return oracleProperty('sparse_slice', cases);
}

/** A random shape of rank 0..3 holding exactly `n` elements (n = 0: some dim is 0; n = 1: maybe rank 0). */
function shapeHolding(n: number): fc.Arbitrary<number[]> {
  if (n === 0)
    return fc
      .array(dim(4), { minLength: 1, maxLength: 3 })
      .chain((s) => fc.integer({ min: 0, max: s.length - 1 }).map((z) => s.map((d, j) => (j === z ? 0 : d))));
  const divisors = Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);
  const factored = fc.tuple(fc.array(fc.constantFrom(...divisors), { maxLength: 2 }), fc.nat()).map(([picks, pos]) => {
    const out: number[] = [];
    let left = n;
    for (const d of picks) {
      if (left % d !== 0) continue;
      out.push(d);
      left /= d;
    }
    if (left !== 1 || out.length === 0) out.splice(pos % (out.length + 1), 0, left);
    return out;
  });
  return n === 1 ? fc.oneof(fc.constant<number[]>([]), factored) : factored;
}

/** reshape: output position o is input position o of the same row-major order; sometimes a dim is -1; counts that differ are an error. */
function reshape(): Property {
  const cases = dtypeArb.chain((dtype) =>
    fc.array(dim(3), { maxLength: 3 }).chain((shape) => {
      const n = sizeOf(shape);
      return fc
        .tuple(
          anySparseArb(shape, dtype, { unordered: true }),
          fc.oneof(
            { weight: 4, arbitrary: shapeHolding(n) },
            { weight: 1, arbitrary: fc.array(dim(3), { maxLength: 3 }) },
          ),
          fc.nat(),
        )
        .map(([sp, target, pick]) => {
          const args = (s: number[]) => ({ sp_input: sp, shape: s });
          if (sizeOf(target) !== n) {
            return {
              op: 'sparse_reshape',
              name: 'property',
              args: args(target),
              expect_error: {
                kind: 'InvalidArgument' as const,
                match: `has ${n} dense values, but the requested shape`,
              },
            };
          }
          // A -1 can stand for a dim when the others hold a non-zero number of elements.
          const canInfer = target.map((_, j) => sizeOf(target.filter((__, q) => q !== j)) > 0);
          const j =
            target.length > 0 && pick % 2 === 1 && canInfer.some(Boolean)
              ? canInfer.indexOf(true, pick % target.length)
              : -1;
          const given = j >= 0 ? target.map((d, q) => (q === j ? -1 : d)) : target;
          const read = reader(sp, 'source');
          return one(
            'sparse_reshape',
            args(given),
            gatherDense(target, dtype, (_, off) => read(indexOf(off, shape), off)),
          );
        });
    }),
  );
  return oracleProperty('sparse_reshape', cases);
}

/** expand_dims: output position i is i without the new dim. */
function expandDims(): Property {
  const cases = dtypeArb.chain((dtype) =>
    fc.array(dim(3), { maxLength: 3 }).chain((shape) =>
      fc.tuple(anySparseArb(shape, dtype, { unordered: true }), axisArb(shape.length + 1)).map(([sp, [at, given]]) => {
        const outShape = [...shape.slice(0, at), 1, ...shape.slice(at)];
        const read = reader(sp, 'source');
        const from = (index: number[]) => index.filter((_, d) => d !== at);
        return one(
          'sparse_expand_dims',
          { sp_input: sp, axis: given },
          gatherDense(outShape, dtype, (index, off) => read(from(index), off)),
        );
      }),
    ),
  );
  return oracleProperty('sparse_expand_dims', cases);
}

export const RESHAPING_PROPERTIES: Property[] = [concat(), split(), slice(), reshape(), expandDims()];
