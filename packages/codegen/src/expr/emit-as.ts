import { wholeLiteral, type Expr } from './ast.js';
import { FUNCTIONS } from './functions.js';
import type { DTypeName } from '../spec-types.js';

/** The AssemblyScript type of each numeric dtype. */
export const AS_TYPE: Partial<Record<DTypeName, string>> = {
  float32: 'f32',
  float64: 'f64',
  int32: 'i32',
  int64: 'i64',
};

/**
 * Emits an expression as AssemblyScript for one dtype. Wasm arithmetic is already the dtype's own (f32 rounds,
 * i32/i64 wrap); where one instruction is not TensorFlow's semantics (integer division, integer pow, sign) the
 * code calls expr-runtime.ts, which records a failure instead of trapping. Functions are emitted as functions.ts says.
 */
export function emitAs(e: Expr, dtype: DTypeName, vars: Record<string, string>): string {
  const t = AS_TYPE[dtype]!;
  const isInt = dtype === 'int32' || dtype === 'int64';
  const go = (x: Expr) => emitAs(x, dtype, vars);
  switch (e.kind) {
    case 'number':
      return isInt ? `<${t}>${wholeLiteral(e.text)}` : `<${t}>${Number(e.text)}`;
    case 'var':
      return vars[e.name];
    case 'const':
      if (e.name === 'inf') return `<${t}>Infinity`;
      if (isInt) return `${t}.${e.name === 'max_value' ? 'MAX_VALUE' : 'MIN_VALUE'}`;
      return e.name === 'max_value' ? `<${t}>Infinity` : `<${t}>-Infinity`;
    case 'unary':
      return e.op === '!' ? `(!${go(e.arg)})` : `(<${t}>(0 - ${go(e.arg)}))`;
    case 'binary': {
      const [l, r] = [go(e.left), go(e.right)];
      if (e.op === '/' && isInt) return `idiv<${t}>(${l}, ${r})`;
      if (['+', '-', '*', '/'].includes(e.op)) return `(<${t}>(${l} ${e.op} ${r}))`;
      return `(${l} ${e.op} ${r})`;
    }
    case 'call':
      return FUNCTIONS[e.fn].as(e.args.map(go), dtype, t);
  }
}
