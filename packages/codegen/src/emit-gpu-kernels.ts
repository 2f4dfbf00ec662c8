import { tsHeader } from './header.js';
import { compileTemplate } from './template.js';
import { emitGpu } from './expr/emit-gpu.js';
import { emitIntRange, int32Blocker } from './expr/emit-int-range.js';
import { emitMagnitude } from './expr/emit-magnitude.js';
import { gpuHelpers } from './expr/gpu-math.js';
import type { Expr } from './expr/ast.js';
import type { CompiledKernel, ExprField } from './expr/family.js';
import { boundFunctions, type BoundFunction } from './bound-functions.js';
import type { LoadedSpec } from './spec-types.js';

type Family = LoadedSpec & { compiled: CompiledKernel };

/**
 * `kernels-gpu/src/generated/families.ts`: for every expression-family op that allows float32, the gpu.js
 * kernel-function sources (float32), what the host needs to lay out its arguments, and the magnitudes the host checks
 * to keep subnormal float32 values off the GPU; for those that also allow int32, the ranges the host checks before
 * computing int32 values in float32 (or what forbids it).
 */
export function emitGpuFamilies(specs: LoadedSpec[], templatePath: string): string {
  const template = compileTemplate(templatePath);
  const ops = specs
    .filter((s): s is Family => s.compiled !== undefined && s.compiled.dtypes.includes('float32'))
    .map((s) => {
      const k = s.compiled;
      // Scalars reach the kernel as constants (gpu.js `this.constants`), re-set per call with dynamic arguments.
      const vars: Record<string, string> = { a: 'a', b: 'b', x: 'x', acc: 'acc', out: 'out', count: 'count' };
      for (const sc of k.roles.scalars) vars[sc] = sc;
      const code = (f: ExprField) => (k.exprs[f] ? emitGpu(k.exprs[f]!, vars) : '');
      return {
        op: s.name,
        family: k.family,
        source: s.kernel,
        scalars: k.roles.scalars,
        includeZeros: k.implicitZeros === 'include',
        join: k.join ?? '',
        expr: code('expr'),
        only_a: code('only_a'),
        only_b: code('only_b'),
        keep: code('keep') || 'true',
        init: code('init'),
        combine: code('combine'),
        finalize: code('finalize') || 'acc',
        functions: gpuHelpers(Object.values(k.exprs).filter((e): e is Expr => e !== undefined)),
        float32: boundFunctions(k, 'M', emitMagnitude),
        int32: k.dtypes.includes('int32') ? int32Ranges(k) : undefined,
      };
    });
  return template({ header: tsHeader.trim(), ops });
}

/** The template's int32 entry: why int32 is not float arithmetic here, or each expression over value ranges. */
function int32Ranges(k: CompiledKernel): { not: string } | { fns: BoundFunction[] } {
  for (const e of Object.values(k.exprs)) {
    const not = e && int32Blocker(e);
    if (not) return { not };
  }
  return { fns: boundFunctions(k, 'R', emitIntRange) };
}
