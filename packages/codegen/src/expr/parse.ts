import { CONSTANTS, ExprError, type BinaryOp, type ConstantName, type Expr, type FunctionName } from './ast.js';
import { FUNCTIONS } from './functions.js';

type Token = { kind: 'number' | 'ident' | 'op' | 'end'; text: string; pos: number };

const OPERATORS = ['<=', '>=', '==', '!=', '&&', '||', '+', '-', '*', '/', '<', '>', '!', '(', ')', ','];

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const num = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(src.slice(i));
    if (num) {
      tokens.push({ kind: 'number', text: num[0], pos: i });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (id) {
      tokens.push({ kind: 'ident', text: id[0], pos: i });
      i += id[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExprError(`unexpected character '${c}'`, i);
    tokens.push({ kind: 'op', text: op, pos: i });
    i += op.length;
  }
  tokens.push({ kind: 'end', text: 'the end', pos: src.length });
  return tokens;
}

// Binding power of each binary operator, loosest first.
const PRECEDENCE: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
};

/** Parses an expression into the IR; a syntax error, an unknown function or a wrong argument count is an ExprError at its position. */
export function parseExpr(src: string): Expr {
  const tokens = tokenize(src);
  let k = 0;
  const peek = () => tokens[k];
  const next = () => tokens[k++];
  const expect = (text: string) => {
    const t = next();
    if (t.text !== text || t.kind === 'end') throw new ExprError(`expected '${text}', found ${describe(t)}`, t.pos);
  };

  const primary = (): Expr => {
    const t = next();
    if (t.kind === 'number') return { kind: 'number', text: t.text, pos: t.pos };
    if (t.kind === 'op' && (t.text === '-' || t.text === '!'))
      return { kind: 'unary', op: t.text, arg: binary(7), pos: t.pos };
    if (t.kind === 'op' && t.text === '(') {
      const e = binary(0);
      expect(')');
      return e;
    }
    if (t.kind === 'ident') {
      if (peek().text === '(') {
        next();
        if (!Object.hasOwn(FUNCTIONS, t.text))
          throw new ExprError(`unknown function '${t.text}' (functions: ${Object.keys(FUNCTIONS).join(', ')})`, t.pos);
        const args: Expr[] = [];
        if (peek().text !== ')') {
          do args.push(binary(0));
          while (peek().text === ',' && next());
        }
        expect(')');
        const fn = t.text as FunctionName;
        if (args.length !== FUNCTIONS[fn].arity)
          throw new ExprError(`${fn} takes ${FUNCTIONS[fn].arity} argument(s), got ${args.length}`, t.pos);
        return { kind: 'call', fn, args, pos: t.pos };
      }
      if ((CONSTANTS as readonly string[]).includes(t.text))
        return { kind: 'const', name: t.text as ConstantName, pos: t.pos };
      return { kind: 'var', name: t.text, pos: t.pos };
    }
    throw new ExprError(`expected a value, found ${describe(t)}`, t.pos);
  };

  const binary = (minPrec: number): Expr => {
    let left = primary();
    for (;;) {
      const t = peek();
      const prec = t.kind === 'op' ? PRECEDENCE[t.text] : undefined;
      if (prec === undefined || prec <= minPrec) return left;
      next();
      left = { kind: 'binary', op: t.text as BinaryOp, left, right: binary(prec), pos: t.pos };
    }
  };

  const e = binary(0);
  if (peek().kind !== 'end') throw new ExprError(`unexpected ${describe(peek())}`, peek().pos);
  return e;
}

function describe(t: Token): string {
  return t.kind === 'end' ? 'the end of the expression' : `'${t.text}'`;
}
