import type { Expr } from './ast.js';
import { FUNCTIONS } from './functions.js';

/**
 * What makes an expression's int32 meaning something other than float arithmetic, or undefined if nothing does. The
 * GPU computes int32 in float32, which is exact for sums, products, min, max and comparisons of integers within 2^24,
 * but not for int32 division (it truncates toward zero), int32 pow (by squaring, wrapping, refusing negative
 * exponents) or anything that is not an integer (exp, sin…: floats only, the checker refuses them for ints): a
 * function says which it is (functions.ts).
 */
export function int32Blocker(e: Expr): string | undefined {
  switch (e.kind) {
    case 'unary':
      return int32Blocker(e.arg);
    case 'binary':
      if (e.op === '/') return 'division (it truncates toward zero)';
      return int32Blocker(e.left) ?? int32Blocker(e.right);
    case 'call': {
      const { int32 } = FUNCTIONS[e.fn];
      if (int32 !== 'exact') return int32;
      for (const a of e.args) {
        const b = int32Blocker(a);
        if (b) return b;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Emits an expression as JS over value ranges (the functions of int-range-runtime.ts, imported as `R`): given the
 * range of each variable, the range of the result, or undefined if some step may not be exact in float32. The host
 * of the GPU backend evaluates it before taking an int32 call to the GPU. `vars` maps each variable to the JS that
 * reads its range. An expression with an int32Blocker has no range; asking for one is a generator bug.
 */
export function emitIntRange(e: Expr, vars: Record<string, string>): string {
  const go = (x: Expr) => emitIntRange(x, vars);
  switch (e.kind) {
    case 'number':
      return `R.lit(${Number(e.text)})`;
    case 'var':
      return vars[e.name];
    case 'const':
      return `R.limit(${e.name === 'min_value' ? -1 : 1})`;
    case 'unary':
      return e.op === '!' ? `R.cond(${go(e.arg)})` : `R.neg(${go(e.arg)})`;
    case 'binary': {
      const [l, r] = [go(e.left), go(e.right)];
      if (e.op === '+') return `R.add(${l}, ${r})`;
      if (e.op === '-') return `R.sub(${l}, ${r})`;
      if (e.op === '*') return `R.mul(${l}, ${r})`;
      if (e.op === '/') throw new Error('emitIntRange: int32 division has no float32 range (see int32Blocker)');
      return `R.cond(${l}, ${r})`;
    }
    case 'call':
      if (FUNCTIONS[e.fn].int32 !== 'exact')
        throw new Error(`emitIntRange: int32 ${e.fn} has no float32 range (see int32Blocker)`);
      return `R.${e.fn}(${e.args.map(go).join(', ')})`;
  }
}
