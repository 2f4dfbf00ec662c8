import { wholeLiteral, type Expr } from './ast.js';
import { FUNCTIONS } from './functions.js';
import type { DTypeName } from '../spec-types.js';

/**
 * Emits an expression as JS source for one dtype, exact to that dtype's arithmetic: float32 rounds every
 * operation (Math.fround), int32 wraps (|0, Math.imul), int64 works on bigint and wraps to 64 bits; integer
 * division truncates and refuses zero, as TensorFlow's C++ kernels do. `vars` maps each variable to the JS that
 * reads it; support functions are called as `h.<name>` (generated/expr-runtime.ts).
 */
export function emitJs(e: Expr, dtype: DTypeName, vars: Record<string, string>): string {
  const go = (x: Expr) => emitJs(x, dtype, vars);
  const f32 = dtype === 'float32';
  const round = (code: string) => (f32 ? `Math.fround(${code})` : code);
  switch (e.kind) {
    case 'number':
      return literal(e.text, dtype);
    case 'var':
      return vars[e.name];
    case 'const':
      return limit(e.name, dtype);
    case 'unary':
      if (e.op === '!') return `(!${go(e.arg)})`;
      if (dtype === 'int32') return `((-${go(e.arg)}) | 0)`;
      if (dtype === 'int64') return `BigInt.asIntN(64, -${go(e.arg)})`;
      return `(-${go(e.arg)})`;
    case 'binary': {
      const [l, r] = [go(e.left), go(e.right)];
      if (!['+', '-', '*', '/'].includes(e.op))
        return `(${l} ${e.op === '==' ? '===' : e.op === '!=' ? '!==' : e.op} ${r})`;
      if (dtype === 'int32') {
        if (e.op === '*') return `Math.imul(${l}, ${r})`;
        if (e.op === '/') return `h.div32(${l}, ${r})`;
        return `((${l} ${e.op} ${r}) | 0)`;
      }
      if (dtype === 'int64') return e.op === '/' ? `h.div64(${l}, ${r})` : `BigInt.asIntN(64, ${l} ${e.op} ${r})`;
      return f32 ? `Math.fround(${l} ${e.op} ${r})` : `(${l} ${e.op} ${r})`;
    }
    case 'call':
      return FUNCTIONS[e.fn].js(e.args.map(go), dtype, round);
  }
}

function literal(text: string, dtype: DTypeName): string {
  if (dtype === 'int64') return `${wholeLiteral(text)}n`;
  const v = Number(text);
  if (dtype === 'float32') return String(Math.fround(v));
  return String(v);
}

function limit(name: 'inf' | 'max_value' | 'min_value', dtype: DTypeName): string {
  const sign = name === 'min_value' ? -1 : 1;
  switch (dtype) {
    case 'int32':
      return sign > 0 ? '2147483647' : '-2147483648';
    case 'int64':
      return sign > 0 ? '9223372036854775807n' : '-9223372036854775808n';
    default:
      return sign > 0 ? 'Infinity' : '-Infinity';
  }
}
