import fc from 'fast-check';
import type { LoadedSpec } from '@sparse/codegen';
import { shapeArb } from './arbitraries.js';
import { arithmeticOf, type Num } from './dtype-arithmetic.js';
import { numSparseArb, valuesArb } from './expression-arbitraries.js';
import { oracleCase } from './expression-case.js';
import { scalarsArb, type Scalars } from './expression-scalars.js';
import { denseCase, sparseCase, type NumSparse } from './expression-values.js';
import { evaluate, evaluateValue, type CompiledKernel } from './expr-interpreter.js';
import { indexOf, offsetOf, sizeOf, type NumericDType } from './grid.js';
import { oracleProperty, type Property } from './property.js';
import { outputOf, valueDTypes } from './spec-roles.js';

type Operand = { sparse: NumSparse } | { dense: Num[] };

/**
 * merge: two operands of one shape, each canonically ordered. Both sparse: the union (or intersection) of their
 * positions in canonical order, `expr` where both hold an entry (kept only if `keep`), `only_a` / `only_b` where one
 * does. One dense (a `sparse_or_dense` argument): the dense tensor, each stored entry combined with it by `expr`.
 */
export function mergeOracle(spec: LoadedSpec, kernel: CompiledKernel): Property {
  const names = [kernel.roles.a!, kernel.roles.b!] as const;
  const mayBeDense = names.map((n) => spec.args.find((a) => a.name === n)?.type === 'sparse_or_dense');
  // Which operand is dense, if any: never both (a merge needs a sparse side).
  const denseSide = fc.constantFrom<(0 | 1 | null)[]>(null, ...([0, 1] as const).filter((i) => mayBeDense[i]));
  const cases = fc.constantFrom(...valueDTypes(kernel)).chain((dtype) =>
    fc.tuple(shapeArb(0, 3, 4), denseSide).chain(([shape, dense]) => {
      const operand = (i: 0 | 1): fc.Arbitrary<Operand> =>
        i === dense
          ? valuesArb(dtype, sizeOf(shape)).map((data) => ({ dense: data }))
          : numSparseArb(shape, dtype, true).map((sp) => ({ sparse: sp }));
      return fc.tuple(operand(0), operand(1), scalarsArb(spec, kernel, dtype)).map(([a, b, scalars]) => {
        const form = (o: Operand) => ('sparse' in o ? sparseCase(o.sparse, dtype) : denseCase(o.dense, shape, dtype));
        const args = { [names[0]]: form(a), [names[1]]: form(b), ...scalars.args };
        return oracleCase(spec.name, args, () => ({
          [outputOf(spec).name]:
            'sparse' in a && 'sparse' in b
              ? sparseCase(mergeSparse(kernel, dtype, a.sparse, b.sparse, scalars), dtype)
              : denseCase(mergeDense(kernel, dtype, a, b, scalars), shape, dtype),
        }));
      });
    }),
  );
  return oracleProperty(spec.name, cases);
}

function mergeSparse(kernel: CompiledKernel, dtype: NumericDType, a: NumSparse, b: NumSparse, s: Scalars): NumSparse {
  const arith = arithmeticOf(dtype);
  const { expr, only_a, only_b, keep } = kernel.exprs;
  const at = (t: NumSparse) => new Map(t.indices.map((ix, i) => [offsetOf(ix, t.shape), t.values[i]]));
  const [inA, inB] = [at(a), at(b)];
  const out: NumSparse = { indices: [], values: [], shape: a.shape };
  const positions = [...new Set([...inA.keys(), ...inB.keys()])].sort((x, y) => x - y);
  for (const off of positions) {
    const [va, vb] = [inA.get(off), inB.get(off)];
    let v: Num;
    if (va !== undefined && vb !== undefined) {
      v = evaluateValue(expr!, arith, { ...s.vars, a: va, b: vb });
      if (keep && !evaluate(keep, arith, { ...s.vars, out: v, a: va, b: vb })) continue;
    } else if (kernel.join === 'intersection') continue;
    else if (va !== undefined) v = evaluateValue(only_a!, arith, { ...s.vars, a: va });
    else v = evaluateValue(only_b!, arith, { ...s.vars, b: vb! });
    out.indices.push(indexOf(off, a.shape));
    out.values.push(v);
  }
  return out;
}

/** The dense operand, each stored entry of the sparse one combined into it in turn. */
function mergeDense(kernel: CompiledKernel, dtype: NumericDType, a: Operand, b: Operand, s: Scalars): Num[] {
  const arith = arithmeticOf(dtype);
  const sparseIsA = 'sparse' in a;
  const [{ sparse }, { dense }] = (sparseIsA ? [a, b] : [b, a]) as [{ sparse: NumSparse }, { dense: Num[] }];
  const data = dense.slice();
  sparse.indices.forEach((ix, i) => {
    const p = offsetOf(ix, sparse.shape);
    const [va, vb] = sparseIsA ? [sparse.values[i], data[p]] : [data[p], sparse.values[i]];
    data[p] = evaluateValue(kernel.exprs.expr!, arith, { ...s.vars, a: va, b: vb });
  });
  return data;
}
