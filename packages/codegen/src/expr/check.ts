import { ExprError, wholeLiteral, type Expr } from './ast.js';
import { FUNCTIONS } from './functions.js';
import type { DTypeName } from '../spec-types.js';

export type ExprType = 'value' | 'bool';

const FLOATS: readonly DTypeName[] = ['float32', 'float64'];
const INT_RANGE: Partial<Record<DTypeName, [bigint, bigint]>> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

/**
 * Type-checks an expression for one dtype: values are of that dtype, comparisons are bool. Reading an unknown
 * variable, `inf` or a float-only function (exp, sin…) on an integer dtype, a literal the dtype cannot hold, or a bool where a value
 * is due is an ExprError at the position.
 */
export function checkExpr(e: Expr, dtype: DTypeName, vars: readonly string[], want: ExprType): void {
  if (!FLOATS.includes(dtype) && !INT_RANGE[dtype])
    throw new ExprError(`expressions need a numeric dtype, not ${dtype}`, e.pos);
  const got = typeOf(e, dtype, vars);
  if (got !== want)
    throw new ExprError(
      `expected ${want === 'bool' ? 'a condition' : 'a value'}, got ${got === 'bool' ? 'a condition' : 'a value'}`,
      e.pos,
    );
}

function typeOf(e: Expr, dtype: DTypeName, vars: readonly string[]): ExprType {
  const isFloat = FLOATS.includes(dtype);
  const need = (x: Expr, t: ExprType, what: string) => {
    const got = typeOf(x, dtype, vars);
    if (got !== t) throw new ExprError(`${what} needs ${t === 'bool' ? 'a condition' : 'a value'}`, x.pos);
  };
  switch (e.kind) {
    case 'number': {
      if (!isFloat) {
        const b = wholeLiteral(e.text);
        if (b === undefined)
          throw new ExprError(`the literal ${e.text} is not a whole number, as ${dtype} needs`, e.pos);
        const [lo, hi] = INT_RANGE[dtype]!;
        if (b < lo || b > hi) throw new ExprError(`the literal ${e.text} does not fit in ${dtype}`, e.pos);
      }
      return 'value';
    }
    case 'var':
      if (!vars.includes(e.name))
        throw new ExprError(`unknown variable '${e.name}' (variables here: ${vars.join(', ')})`, e.pos);
      return 'value';
    case 'const':
      if (e.name === 'inf' && !isFloat)
        throw new ExprError(`inf is not a ${dtype} value (use max_value / min_value)`, e.pos);
      return 'value';
    case 'unary':
      need(e.arg, e.op === '!' ? 'bool' : 'value', `'${e.op}'`);
      return e.op === '!' ? 'bool' : 'value';
    case 'binary':
      if (e.op === '&&' || e.op === '||') {
        need(e.left, 'bool', `'${e.op}'`);
        need(e.right, 'bool', `'${e.op}'`);
        return 'bool';
      }
      need(e.left, 'value', `'${e.op}'`);
      need(e.right, 'value', `'${e.op}'`);
      return ['+', '-', '*', '/'].includes(e.op) ? 'value' : 'bool';
    case 'call':
      if (FUNCTIONS[e.fn].domain === 'float' && !isFloat) {
        throw new ExprError(`${e.fn} is defined for float32 and float64, not ${dtype}`, e.pos);
      }
      if (e.fn === 'where') {
        need(e.args[0], 'bool', 'the condition of where');
        need(e.args[1], 'value', 'where');
        need(e.args[2], 'value', 'where');
      } else {
        e.args.forEach((a) => need(a, 'value', e.fn));
      }
      return 'value';
  }
}
