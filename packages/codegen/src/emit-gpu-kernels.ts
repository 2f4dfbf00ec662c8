import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { tsHeader } from './header.js';
import { emitGpu } from './expr/emit-gpu.js';
import type { CompiledKernel, ExprField } from './expr/family.js';
import type { LoadedSpec } from './spec-types.js';

const hb = Handlebars.create();
hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
hb.registerHelper('json', (a: unknown) => JSON.stringify(a));

type Family = LoadedSpec & { compiled: CompiledKernel };

/**
 * `kernels-gpu/src/generated/families.ts`: for every expression-family op that allows float32, the gpu.js
 * kernel-function sources (float32) and what the host needs to lay out its arguments.
 */
export function emitGpuFamilies(specs: LoadedSpec[], templatePath: string): string {
  const template = hb.compile(readFileSync(templatePath, 'utf8'), { noEscape: true, strict: true });
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
      };
    });
  return template({ header: tsHeader.trim(), ops });
}
