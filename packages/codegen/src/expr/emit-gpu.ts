import type { Expr } from './ast.js';

/** The largest float32: what `inf` becomes on the GPU (GLSL ES has no infinity literal, and gpu.js none to offer). */
const GPU_INF = '3.4028234663852886e38';

/**
 * Emits an expression as the body of a gpu.js kernel function: JS that gpu.js translates to GLSL, float32 only
 * (int32 values run through it as float32 only where emit-int-range.ts's bound shows that exact; the GPU backend
 * delegates every other dtype). Math.* functions; `where` becomes a ternary; `inf` and the
 * limits become ±the largest float32, and so does a pow GLSL leaves undefined (a result that reaches them is
 * rerun on the JS kernels, see kernels-gpu/src/delegation.ts). `vars` maps each variable to the JS that reads it.
 */
export function emitGpu(e: Expr, vars: Record<string, string>): string {
  const go = (x: Expr) => emitGpu(x, vars);
  switch (e.kind) {
    case 'number': {
      const v = Math.fround(Number(e.text));
      // A float literal: gpu.js types an integer literal as an int in some contexts.
      return Number.isInteger(v) ? `${v}.0` : String(v);
    }
    case 'var':
      return vars[e.name];
    case 'const':
      return e.name === 'min_value' ? `(-${GPU_INF})` : GPU_INF;
    case 'unary':
      return e.op === '!' ? `(!${go(e.arg)})` : `(-${go(e.arg)})`;
    case 'binary':
      return `(${go(e.left)} ${e.op === '==' ? '===' : e.op === '!=' ? '!==' : e.op} ${go(e.right)})`;
    case 'call': {
      const a = e.args.map(go);
      switch (e.fn) {
        case 'where':
          return `(${a[0]} ? ${a[1]} : ${a[2]})`;
        case 'min':
        case 'max':
          return `Math.${e.fn}(${a[0]}, ${a[1]})`;
        case 'pow':
          // GLSL leaves pow undefined for a negative base, and for 0 to a power ≤ 0 (drivers return 0 for 1/0):
          // those entries yield the largest float32, so the call is rerun on the JS kernels.
          return `((${a[0]} < 0.0 || (${a[0]} === 0.0 && ${a[1]} <= 0.0)) ? ${GPU_INF} : Math.pow(${a[0]}, ${a[1]}))`;
        default:
          return `Math.${e.fn}(${a[0]})`;
      }
    }
  }
}
