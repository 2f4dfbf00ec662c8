import type { Expr } from './ast.js';

/**
 * Emits a float32 expression as JS over magnitudes (the functions of magnitude-runtime.ts, imported as `M`): given the
 * magnitudes of each variable, those of the result, or undefined if some step may take a subnormal value, which a GPU
 * flushes to zero. The host of the GPU backend evaluates it before taking a float32 call to the GPU. `vars` maps each
 * variable to the JS that reads its magnitudes.
 */
export function emitMagnitude(e: Expr, vars: Record<string, string>): string {
  const go = (x: Expr) => emitMagnitude(x, vars);
  switch (e.kind) {
    case 'number':
      return `M.lit(${Number(e.text)})`;
    case 'var':
      return vars[e.name];
    case 'const':
      return 'M.limit()';
    case 'unary':
      return e.op === '!' ? `M.cond(${go(e.arg)})` : `M.neg(${go(e.arg)})`;
    case 'binary': {
      const [l, r] = [go(e.left), go(e.right)];
      if (e.op === '+') return `M.add(${l}, ${r})`;
      if (e.op === '-') return `M.sub(${l}, ${r})`;
      if (e.op === '*') return `M.mul(${l}, ${r})`;
      if (e.op === '/') return `M.div(${l}, ${r})`;
      return `M.cond(${l}, ${r})`;
    }
    case 'call':
      return `M.${e.fn}(${e.args.map(go).join(', ')})`;
  }
}
