import type { Expr } from './ast.js';
import { FUNCTIONS, GPU_MAX } from './functions.js';

/**
 * Emits an expression as the body of a gpu.js kernel function: JS that gpu.js translates to GLSL, float32 only
 * (int32 values run through it as float32 only where emit-int-range.ts's bound shows that exact; the GPU backend
 * delegates every other dtype). Functions as functions.ts gives them (Math.*, or a helper of gpu-math.ts); `inf`
 * and the limits become ±the largest float32, and so does a function GLSL leaves undefined or a helper computes
 * only within a range (a result that reaches it is rerun on the JS kernels, see kernels-gpu/src/delegation.ts).
 * `vars` maps each variable to the JS that reads it.
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
      return e.name === 'min_value' ? `(-${GPU_MAX})` : GPU_MAX;
    case 'unary':
      return e.op === '!' ? `(!${go(e.arg)})` : `(-${go(e.arg)})`;
    case 'binary':
      return `(${go(e.left)} ${e.op === '==' ? '===' : e.op === '!=' ? '!==' : e.op} ${go(e.right)})`;
    case 'call':
      return FUNCTIONS[e.fn].gpu(e.args.map(go));
  }
}
