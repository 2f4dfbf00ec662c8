import type { Expr } from './expr/ast.js';
import type { CompiledKernel, ExprField } from './expr/family.js';
import { variablesOf } from './expr/variables.js';

// What the GPU backends' templates emit to bound a call on the host: an op's expressions over int32 ranges or
// float32 magnitudes (the GPU backends delegate a call whose bound says a step could leave what the GPU computes
// as the JS kernels do).

/** A bound function of the template (an int32 range, float32 magnitudes): its name, parameters and what it returns. */
export interface BoundFunction {
  name: 'value' | 'keep' | 'init' | 'combine' | 'finalize';
  params: string;
  body: string;
}

/**
 * The op's expressions over a bound's domain (the functions a generated file imports as `ns`: R for int32 ranges, M
 * for float32 magnitudes), one function per expression the host evaluates for its family.
 */
export function boundFunctions(
  k: CompiledKernel,
  ns: 'R' | 'M',
  emit: (e: Expr, vars: Record<string, string>) => string,
): BoundFunction[] {
  const vars: Record<string, string> = { a: 'a', b: 'b', x: 'x', acc: 'acc', out: 'out', count: 'count' };
  for (const sc of k.roles.scalars) vars[sc] = sc;
  const bound = (f: ExprField) => emit(k.exprs[f]!, vars);
  // The host passes every variable by position, then the scalars; one the expression does not read keeps its place
  // under a leading _.
  const fn = (
    name: BoundFunction['name'],
    names: string[],
    fields: ExprField[],
    body: string,
    bodyReads: string[] = [],
  ): BoundFunction => {
    const read = new Set<string>(bodyReads);
    for (const f of fields) if (k.exprs[f]) variablesOf(k.exprs[f]!, read);
    const params = [...names, ...k.roles.scalars].map((n) => `${read.has(n) ? n : `_${n}`}: ${ns}.Maybe`).join(', ');
    return { name, params, body };
  };
  switch (k.family) {
    case 'map':
      return [fn('value', ['x'], ['expr'], bound('expr'))];
    case 'cwise':
      return [fn('value', ['a', 'b'], ['expr'], bound('expr'))];
    case 'merge':
      // A union takes only_a / only_b where one side is missing, an intersection never does.
      return [
        k.join === 'union'
          ? fn(
              'value',
              ['a', 'b'],
              ['only_a', 'only_b', 'expr'],
              `${ns}.join(${ns}.join(${bound('only_a')}, ${bound('only_b')}), ${bound('expr')})`,
            )
          : fn('value', ['a', 'b'], ['expr'], bound('expr')),
        fn('keep', ['out', 'a', 'b'], ['keep'], k.exprs.keep ? bound('keep') : `${ns}.cond()`),
      ];
    case 'reduce':
      return [
        fn('init', [], ['init'], bound('init')),
        fn('combine', ['acc', 'x'], ['combine'], bound('combine')),
        k.exprs.finalize
          ? fn('finalize', ['acc', 'count'], ['finalize'], bound('finalize'))
          : fn('finalize', ['acc', 'count'], [], 'acc', ['acc']),
      ];
  }
}
