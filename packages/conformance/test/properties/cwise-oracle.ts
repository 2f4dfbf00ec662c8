import fc from 'fast-check';
import type { LoadedSpec } from '@sparse/codegen';
import { broadcastShapeArb, shapeArb } from './arbitraries.js';
import { arithmeticOf } from './dtype-arithmetic.js';
import { numSparseArb, valuesArb } from './expression-arbitraries.js';
import { oracleCase } from './expression-case.js';
import { scalarsArb } from './expression-scalars.js';
import { denseCase, sparseCase } from './expression-values.js';
import { evaluateValue, type CompiledKernel } from './expr-interpreter.js';
import { offsetOf, sizeOf } from './grid.js';
import { oracleProperty, type Property } from './property.js';
import { needsOrder, outputOf, valueDTypes } from './spec-roles.js';

/**
 * cwise: `expr` of each stored value (a) and the dense value broadcast to its index (b); the indices stay as they
 * are, in their order. The dense side drops leading dims and has dims of 1, as broadcasting allows.
 */
export function cwiseOracle(spec: LoadedSpec, kernel: CompiledKernel): Property {
  const sparse = kernel.roles.sparse!;
  const dense = kernel.roles.dense!;
  const expr = kernel.exprs.expr!;
  const cases = fc.constantFrom(...valueDTypes(kernel)).chain((dtype) =>
    shapeArb(0, 3, 4).chain((shape) =>
      fc
        .tuple(
          numSparseArb(shape, dtype, needsOrder(spec, sparse)),
          broadcastShapeArb(shape).chain((bs) => valuesArb(dtype, sizeOf(bs)).map((data) => ({ shape: bs, data }))),
          scalarsArb(spec, kernel, dtype),
        )
        .map(([sp, dn, scalars]) => {
          const args = {
            [sparse]: sparseCase(sp, dtype),
            [dense]: denseCase(dn.data, dn.shape, dtype),
            ...scalars.args,
          };
          return oracleCase(spec.name, args, () => {
            const arith = arithmeticOf(dtype);
            const lead = shape.length - dn.shape.length;
            const values = sp.indices.map((ix, i) => {
              const at = ix.slice(lead).map((x, d) => (dn.shape[d] === 1 ? 0 : x));
              return evaluateValue(expr, arith, {
                ...scalars.vars,
                a: sp.values[i],
                b: dn.data[offsetOf(at, dn.shape)],
              });
            });
            return { [outputOf(spec).name]: sparseCase({ ...sp, values }, dtype) };
          });
        }),
    ),
  );
  return oracleProperty(spec.name, cases);
}
