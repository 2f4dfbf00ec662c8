import type { LoadedSpec } from '@sparse/codegen';
import type { Arithmetic, Num } from './dtype-arithmetic.js';

/** The compiled kernel of an expression-family spec, as codegen's loadSpecs gives it. */
export type CompiledKernel = NonNullable<LoadedSpec['compiled']>;
/** An expression in codegen's typed IR (parsed and checked for every dtype of the op). */
export type Expr = NonNullable<CompiledKernel['exprs']['expr']>;

/**
 * Evaluates an expression for one value of each variable, in one dtype's arithmetic. This walks the IR itself,
 * apart from the code codegen emits from it, so a kernel and this oracle agree only if both mean the spec.
 * `&&`, `||` and `where` evaluate only the side they need, so the branch not taken cannot refuse.
 */
export function evaluate(e: Expr, arith: Arithmetic, vars: Readonly<Record<string, Num>>): Num | boolean {
  const value = (x: Expr) => evaluate(x, arith, vars) as Num;
  const condition = (x: Expr) => evaluate(x, arith, vars) as boolean;
  switch (e.kind) {
    case 'number':
      return arith.literal(e.text);
    case 'var':
      if (!(e.name in vars)) throw new Error(`the oracle has no value for '${e.name}'`);
      return vars[e.name];
    case 'const':
      return arith.limit(e.name);
    case 'unary':
      return e.op === '!' ? !condition(e.arg) : arith.neg(value(e.arg));
    case 'binary':
      switch (e.op) {
        case '&&':
          return condition(e.left) && condition(e.right);
        case '||':
          return condition(e.left) || condition(e.right);
        case '+':
          return arith.add(value(e.left), value(e.right));
        case '-':
          return arith.sub(value(e.left), value(e.right));
        case '*':
          return arith.mul(value(e.left), value(e.right));
        case '/':
          return arith.div(value(e.left), value(e.right));
        case '<':
          return value(e.left) < value(e.right);
        case '<=':
          return value(e.left) <= value(e.right);
        case '>':
          return value(e.left) > value(e.right);
        case '>=':
          return value(e.left) >= value(e.right);
        case '==':
          return value(e.left) === value(e.right);
        case '!=':
          return value(e.left) !== value(e.right);
      }
      break;
    case 'call': {
      const [x, y] = e.args;
      switch (e.fn) {
        case 'where':
          return condition(x) ? value(y) : value(e.args[2]);
        case 'min':
        case 'max':
        case 'pow':
          return arith[e.fn](value(x), value(y));
        case 'abs':
        case 'sign':
        case 'exp':
        case 'log':
        case 'sqrt':
        case 'expm1':
        case 'log1p':
        case 'sin':
        case 'cos':
        case 'tan':
        case 'tanh':
        case 'asin':
        case 'atan':
        case 'sinh':
        case 'cosh':
        case 'asinh':
        case 'atanh':
        case 'floor':
        case 'ceil':
        case 'rint':
        case 'round':
          return arith[e.fn](value(x));
      }
    }
  }
  throw new Error(`the oracle cannot evaluate ${JSON.stringify(e)}`);
}

/** An expression that yields a value (every field but merge's `keep`), evaluated. */
export const evaluateValue = (e: Expr, arith: Arithmetic, vars: Readonly<Record<string, Num>>): Num =>
  evaluate(e, arith, vars) as Num;
