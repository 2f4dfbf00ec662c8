import fc from 'fast-check';
import type { LoadedSpec } from '@sparse/codegen';
import { shapeArb } from './arbitraries.js';
import { arithmeticOf } from './dtype-arithmetic.js';
import { numSparseArb } from './expression-arbitraries.js';
import { oracleCase } from './expression-case.js';
import { scalarsArb } from './expression-scalars.js';
import { sparseCase } from './expression-values.js';
import { evaluateValue, type CompiledKernel } from './expr-interpreter.js';
import { oracleProperty, type Property } from './property.js';
import { needsOrder, outputOf, valueDTypes } from './spec-roles.js';

/** map: `expr` of every stored value (x); the indices stay as they are, in their order. */
export function mapOracle(spec: LoadedSpec, kernel: CompiledKernel): Property {
  const sparse = kernel.roles.sparse!;
  const expr = kernel.exprs.expr!;
  const cases = fc.constantFrom(...valueDTypes(kernel)).chain((dtype) =>
    shapeArb(0, 3, 4).chain((shape) =>
      fc
        .tuple(numSparseArb(shape, dtype, needsOrder(spec, sparse)), scalarsArb(spec, kernel, dtype))
        .map(([sp, scalars]) =>
          oracleCase(spec.name, { [sparse]: sparseCase(sp, dtype), ...scalars.args }, () => {
            const arith = arithmeticOf(dtype);
            const values = sp.values.map((x) => evaluateValue(expr, arith, { ...scalars.vars, x }));
            return { [outputOf(spec).name]: sparseCase({ ...sp, values }, dtype) };
          }),
        ),
    ),
  );
  return oracleProperty(spec.name, cases);
}
