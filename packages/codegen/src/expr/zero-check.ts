import type { Expr } from './ast.js';
import { emitJs } from './emit-js.js';
import * as h from './js-runtime.js';
import type { DTypeName } from '../spec-types.js';

/** Whether f(0) = 0 in the dtype, by running the very JS the backend will run (so the check and the kernel agree). */
export function keepsZero(e: Expr, dtype: DTypeName): boolean {
  const code = emitJs(e, dtype, { x: 'x' });
  const zero = dtype === 'int64' ? 0n : 0;
  try {
    const f = new Function('h', 'x', `return ${code};`) as (helpers: typeof h, x: number | bigint) => unknown;
    const y = f(h, zero);
    return y === 0 || y === 0n;
  } catch {
    return false;
  }
}
