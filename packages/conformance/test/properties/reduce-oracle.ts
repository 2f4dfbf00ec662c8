import fc from 'fast-check';
import type { LoadedSpec } from '@sparse/codegen';
import { shapeArb } from './arbitraries.js';
import { arithmeticOf, type Num } from './dtype-arithmetic.js';
import { numSparseArb } from './expression-arbitraries.js';
import { oracleCase } from './expression-case.js';
import { scalarsArb, type Scalars } from './expression-scalars.js';
import { denseCase, sparseCase, type NumSparse } from './expression-values.js';
import { evaluateValue, type CompiledKernel } from './expr-interpreter.js';
import { indexOf, offsetOf, sizeOf, type NumericDType } from './grid.js';
import { oracleProperty, type Property } from './property.js';
import { needsOrder, outputOf, valueDTypes } from './spec-roles.js';

type Axes = number | number[] | null;

/** Axes of a rank-`rank` tensor: null (all), one axis, or a list (maybe empty, maybe repeating one), each maybe negative. */
function axesArb(rank: number): fc.Arbitrary<Axes> {
  if (rank === 0) return fc.constant(null);
  const axis = fc.integer({ min: -rank, max: rank - 1 });
  return fc.oneof(fc.constant(null), axis, fc.array(axis, { maxLength: rank + 1 }));
}

/**
 * reduce: the stored values grouped by their index in the dims the axes keep; each group starts at `init`, takes
 * `combine` for each value in input order (with `implicit_zeros: include`, once more for 0 if the group has
 * implicit zeros), then `finalize` with its count. An empty group is 0 in a dense output and absent in a sparse one,
 * whose groups come in canonical order.
 */
export function reduceOracle(spec: LoadedSpec, kernel: CompiledKernel): Property {
  const { sparse, axes, keepdims } = kernel.roles as Required<CompiledKernel['roles']>;
  const defaults = Object.fromEntries(spec.args.map((a) => [a.name, a.default]));
  // An argument with a default is sometimes left out, and then has it.
  const orDefault = <T>(name: string, given: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
    name in defaults && defaults[name] !== undefined ? fc.option(given, { nil: undefined }) : given;
  const cases = fc.constantFrom(...valueDTypes(kernel)).chain((dtype) =>
    shapeArb(0, 3, 3).chain((shape) =>
      fc
        .tuple(
          numSparseArb(shape, dtype, needsOrder(spec, sparse)),
          orDefault(axes, axesArb(shape.length)),
          orDefault(keepdims, fc.boolean()),
          scalarsArb(spec, kernel, dtype),
        )
        .map(([sp, ax, keep, scalars]) => {
          const args: Record<string, unknown> = { [sparse]: sparseCase(sp, dtype), ...scalars.args };
          if (ax !== undefined) args[axes] = ax;
          if (keep !== undefined) args[keepdims] = keep;
          const reduceAxes = (ax === undefined ? defaults[axes] : ax) as Axes;
          const keepDims = (keep ?? defaults[keepdims]) as boolean;
          return oracleCase(spec.name, args, () => {
            const output = outputOf(spec);
            const r = reduce(kernel, dtype, sp, reduceAxes, keepDims, scalars);
            return {
              [output.name]:
                output.type === 'dense'
                  ? denseCase(r.dense, r.shape, dtype)
                  : sparseCase(
                      {
                        indices: r.keys.map((k) => indexOf(k, r.shape)),
                        values: r.keys.map((k) => r.dense[k]),
                        shape: r.shape,
                      },
                      dtype,
                    ),
            };
          });
        }),
    ),
  );
  return oracleProperty(spec.name, cases);
}

/** The reduction as a dense result (0 where a group is empty) and the keys of the groups that hold entries, sorted. */
function reduce(
  kernel: CompiledKernel,
  dtype: NumericDType,
  sp: NumSparse,
  axes: Axes,
  keepdims: boolean,
  s: Scalars,
): { dense: Num[]; keys: number[]; shape: number[] } {
  const arith = arithmeticOf(dtype);
  const { init, combine, finalize } = kernel.exprs;
  const rank = sp.shape.length;
  const reduced = new Set((axes === null ? sp.shape.map((_, d) => d) : [axes].flat()).map((a) => (a + rank) % rank));
  const shape = keepdims
    ? sp.shape.map((d, i) => (reduced.has(i) ? 1 : d))
    : sp.shape.filter((_, i) => !reduced.has(i));
  const groupSize = sizeOf(sp.shape.filter((_, i) => reduced.has(i)));
  const start = evaluateValue(init!, arith, s.vars);
  const groups = new Map<number, { acc: Num; count: number }>();
  sp.indices.forEach((ix, i) => {
    const kept = keepdims ? ix.map((x, d) => (reduced.has(d) ? 0 : x)) : ix.filter((_, d) => !reduced.has(d));
    const key = offsetOf(kept, shape);
    const g = groups.get(key) ?? { acc: start, count: 0 };
    groups.set(key, {
      acc: evaluateValue(combine!, arith, { ...s.vars, acc: g.acc, x: sp.values[i] }),
      count: g.count + 1,
    });
  });
  const dense = new Array<Num>(sizeOf(shape)).fill(arith.zero);
  for (const [key, g] of groups) {
    let acc = g.acc;
    if (kernel.implicitZeros === 'include' && g.count < groupSize)
      acc = evaluateValue(combine!, arith, { ...s.vars, acc, x: arith.zero });
    if (finalize) acc = evaluateValue(finalize, arith, { ...s.vars, acc, count: arith.fromInt(g.count) });
    dense[key] = acc;
  }
  return { dense, keys: [...groups.keys()].sort((x, y) => x - y), shape };
}
