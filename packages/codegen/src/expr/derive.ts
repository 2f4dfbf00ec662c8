import type { Expr } from './ast.js';

/**
 * Symbolic differentiation of a value expression with respect to one variable, into the same IR, so that every
 * target emits a derivative as it emits the expression itself. The rules are TensorFlow's registered gradients
 * of the dense ops (math_grad.py): at a tie `min` passes the gradient to its first operand where x <= y and `max`
 * where x >= y; `abs` is sign(x); `sign` and conditions have none; `pow`'s exponent gets y * log(x) only where
 * x > 0 (0 elsewhere). A derivative that is structurally 0 stays the literal 0 (so grad * 0 never makes a NaN
 * of an infinite grad), and 1s and 0s are folded away, as TensorFlow's own gradient graphs never compute them.
 */
export function derive(e: Expr, wrt: string): Expr {
  const d = (x: Expr) => derive(x, wrt);
  switch (e.kind) {
    case 'number':
    case 'const':
      return ZERO;
    case 'var':
      return e.name === wrt ? ONE : ZERO;
    case 'unary':
      // `!` makes a condition, which has no derivative.
      return e.op === '!' ? ZERO : neg(d(e.arg));
    case 'binary': {
      const { left: u, right: v } = e;
      switch (e.op) {
        case '+':
          return add(d(u), d(v));
        case '-':
          return sub(d(u), d(v));
        case '*':
          return add(mul(d(u), v), mul(u, d(v)));
        case '/':
          // d(u / v) = du / v - dv * (u / v) / v, in TensorFlow's order of operations (RealDiv's gradient).
          return sub(div(d(u), v), mul(d(v), div(div(u, v), v)));
        default:
          return ZERO;
      }
    }
    case 'call': {
      const [x, y, z] = e.args;
      switch (e.fn) {
        case 'min':
          return where(call('<=', x, y), d(x), d(y));
        case 'max':
          return where(call('>=', x, y), d(x), d(y));
        case 'abs':
          return mul(fn('sign', x), d(x));
        case 'sign':
          return ZERO;
        case 'exp':
          return mul(fn('exp', x), d(x));
        case 'log':
          return div(d(x), x);
        case 'sqrt':
          return mul(d(x), div(num('0.5'), fn('sqrt', x)));
        case 'pow': {
          const dx = d(x);
          const dy = d(y);
          const byBase = isZero(dx) ? ZERO : mul(dx, mul(y, fn('pow', x, sub(y, ONE))));
          const byExponent = isZero(dy)
            ? ZERO
            : mul(dy, where(call('>', x, ZERO), mul(fn('pow', x, y), fn('log', x)), ZERO));
          return add(byBase, byExponent);
        }
        case 'where':
          return where(x, d(y), d(z));
        case 'expm1':
          return mul(fn('exp', x), d(x));
        case 'log1p':
          return div(d(x), add(ONE, x));
        case 'sin':
          return mul(fn('cos', x), d(x));
        case 'cos':
          return neg(mul(fn('sin', x), d(x)));
        // sec² x = 1 + tan² x.
        case 'tan':
          return mul(add(ONE, mul(fn('tan', x), fn('tan', x))), d(x));
        // TensorFlow's TanhGrad: 1 - y².
        case 'tanh':
          return mul(sub(ONE, mul(fn('tanh', x), fn('tanh', x))), d(x));
        case 'asin':
          return div(d(x), fn('sqrt', sub(ONE, mul(x, x))));
        case 'atan':
          return div(d(x), add(ONE, mul(x, x)));
        case 'sinh':
          return mul(fn('cosh', x), d(x));
        case 'cosh':
          return mul(fn('sinh', x), d(x));
        // 1 / cosh(asinh x), TensorFlow's AsinhGrad.
        case 'asinh':
          return div(d(x), fn('sqrt', add(ONE, mul(x, x))));
        case 'atanh':
          return div(d(x), sub(ONE, mul(x, x)));
        // Piecewise constant: TensorFlow registers no gradient (None, a zero).
        case 'floor':
        case 'ceil':
        case 'rint':
        case 'round':
          return ZERO;
      }
    }
  }
}

/**
 * The vector-Jacobian product of one operand: `grad` times the derivative (just `grad` where it is 1), taken into
 * both branches of a `where`, so that a branch whose derivative is 0 gives 0 as TensorFlow's select does (never
 * grad * 0, a NaN for an infinite grad).
 */
export function chain(grad: Expr, derivative: Expr): Expr {
  if (derivative.kind === 'call' && derivative.fn === 'where') {
    const [c, x, y] = derivative.args;
    return where(c, chain(grad, x), chain(grad, y));
  }
  return mul(grad, derivative);
}

export const ZERO: Expr = { kind: 'number', text: '0', pos: 0 };
export const ONE: Expr = { kind: 'number', text: '1', pos: 0 };

export const variable = (name: string): Expr => ({ kind: 'var', name, pos: 0 });
const num = (text: string): Expr => ({ kind: 'number', text, pos: 0 });
const fn = (
  name: 'sign' | 'exp' | 'sqrt' | 'pow' | 'log' | 'sin' | 'cos' | 'tan' | 'tanh' | 'sinh' | 'cosh',
  ...args: Expr[]
): Expr => ({
  kind: 'call',
  fn: name,
  args,
  pos: 0,
});
const call = (op: '<=' | '>=' | '>', left: Expr, right: Expr): Expr => ({ kind: 'binary', op, left, right, pos: 0 });

/** Whether an expression is the literal 0 (or 1): the derivative of a constant, folded away where it meets others. */
export const isZero = (e: Expr) => e.kind === 'number' && Number(e.text) === 0;
const isOne = (e: Expr) => e.kind === 'number' && Number(e.text) === 1;

function add(u: Expr, v: Expr): Expr {
  if (isZero(u)) return v;
  if (isZero(v)) return u;
  return { kind: 'binary', op: '+', left: u, right: v, pos: 0 };
}

function sub(u: Expr, v: Expr): Expr {
  if (isZero(v)) return u;
  if (isZero(u)) return neg(v);
  return { kind: 'binary', op: '-', left: u, right: v, pos: 0 };
}

function mul(u: Expr, v: Expr): Expr {
  if (isZero(u) || isZero(v)) return ZERO;
  if (isOne(u)) return v;
  if (isOne(v)) return u;
  return { kind: 'binary', op: '*', left: u, right: v, pos: 0 };
}

function div(u: Expr, v: Expr): Expr {
  if (isZero(u)) return ZERO;
  if (isOne(v)) return u;
  return { kind: 'binary', op: '/', left: u, right: v, pos: 0 };
}

function neg(u: Expr): Expr {
  if (isZero(u)) return ZERO;
  if (u.kind === 'unary' && u.op === '-') return u.arg;
  return { kind: 'unary', op: '-', arg: u, pos: 0 };
}

function where(c: Expr, x: Expr, y: Expr): Expr {
  if (isZero(x) && isZero(y)) return ZERO;
  return { kind: 'call', fn: 'where', args: [c, x, y], pos: 0 };
}

/** The expression as text, for the op reference (operators parenthesised, so it reads unambiguously). */
export function exprText(e: Expr): string {
  switch (e.kind) {
    case 'number':
      return e.text;
    case 'var':
      return e.name;
    case 'const':
      return e.name;
    case 'unary':
      return `${e.op}${atomText(e.arg)}`;
    case 'binary':
      return `${atomText(e.left)} ${e.op} ${atomText(e.right)}`;
    case 'call':
      return `${e.fn}(${e.args.map(exprText).join(', ')})`;
  }
}

const atomText = (e: Expr) => (e.kind === 'binary' ? `(${exprText(e)})` : exprText(e));
