import { wholeLiteral, type Expr } from './ast.js';
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
 * code calls expr-runtime.ts, which records a failure instead of trapping.
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
    case 'call': {
      const a = e.args.map(go);
      switch (e.fn) {
        case 'where':
          return `(${a[0]} ? ${a[1]} : ${a[2]})`;
        case 'min':
        case 'max':
          return `${e.fn}<${t}>(${a[0]}, ${a[1]})`;
        case 'abs':
          return `abs<${t}>(${a[0]})`;
        case 'sign':
          return isInt ? `isign<${t}>(${a[0]})` : `fsign<${t}>(${a[0]})`;
        case 'pow':
          return isInt ? `ipow<${t}>(${a[0]}, ${a[1]})` : `${t === 'f32' ? 'Mathf' : 'Math'}.pow(${a[0]}, ${a[1]})`;
        case 'sqrt':
          return `sqrt<${t}>(${a[0]})`;
        default:
          return `${t === 'f32' ? 'Mathf' : 'Math'}.${e.fn}(${a[0]})`;
      }
    }
  }
}
