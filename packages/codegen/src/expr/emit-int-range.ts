import type { Expr } from './ast.js';

/**
 * What makes an expression's int32 meaning something other than float arithmetic, or undefined if nothing does. The
 * GPU computes int32 in float32, which is exact for sums, products, min, max and comparisons of integers within 2^24,
 * but not for int32 division (it truncates toward zero), int32 pow (by squaring, wrapping, refusing negative
 * exponents) or anything that is not an integer (exp, log, sqrt: floats only, the checker refuses them for ints).
 */
export function int32Blocker(e: Expr): string | undefined {
  switch (e.kind) {
    case 'unary':
      return int32Blocker(e.arg);
    case 'binary':
      if (e.op === '/') return 'division (it truncates toward zero)';
      return int32Blocker(e.left) ?? int32Blocker(e.right);
    case 'call':
      if (e.fn === 'pow') return 'pow (powers by squaring, wrapping; negative exponents refused)';
      if (e.fn === 'exp' || e.fn === 'log' || e.fn === 'sqrt') return `${e.fn} (not an integer)`;
      for (const a of e.args) {
        const b = int32Blocker(a);
        if (b) return b;
      }
      return undefined;
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
    case 'call': {
      const a = e.args.map(go);
      switch (e.fn) {
        case 'min':
        case 'max':
        case 'where':
        case 'abs':
        case 'sign':
          return `R.${e.fn}(${a.join(', ')})`;
        default:
          throw new Error(`emitIntRange: int32 ${e.fn} has no float32 range (see int32Blocker)`);
      }
    }
  }
}
