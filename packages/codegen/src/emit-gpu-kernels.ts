import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { tsHeader } from './header.js';
import { emitGpu } from './expr/emit-gpu.js';
import { emitIntRange, int32Blocker } from './expr/emit-int-range.js';
import type { CompiledKernel, ExprField } from './expr/family.js';
import { variablesOf } from './expr/variables.js';
import type { LoadedSpec } from './spec-types.js';

const hb = Handlebars.create();
hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
hb.registerHelper('json', (a: unknown) => JSON.stringify(a));

type Family = LoadedSpec & { compiled: CompiledKernel };

/**
 * `kernels-gpu/src/generated/families.ts`: for every expression-family op that allows float32, the gpu.js
 * kernel-function sources (float32) and what the host needs to lay out its arguments; for those that also allow
 * int32, the ranges the host checks before computing int32 values in float32 (or what forbids it).
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
        int32: k.dtypes.includes('int32') ? int32Ranges(k) : undefined,
      };
    });
  return template({ header: tsHeader.trim(), ops });
}

/** An int32 range function of the template: its parameter list and the expression it returns. */
interface RangeFunction {
  params: string;
  body: string;
}

/** The template's int32 entry: why int32 is not float arithmetic here, or each expression over value ranges. */
function int32Ranges(
  k: CompiledKernel,
): { not: string } | Partial<Record<'value' | 'keep' | 'init' | 'combine' | 'finalize', RangeFunction>> {
  for (const e of Object.values(k.exprs)) {
    const not = e && int32Blocker(e);
    if (not) return { not };
  }
  const vars: Record<string, string> = { a: 'a', b: 'b', x: 'x', acc: 'acc', out: 'out', count: 'count' };
  for (const sc of k.roles.scalars) vars[sc] = sc;
  const range = (f: ExprField) => emitIntRange(k.exprs[f]!, vars);
  // The host passes every variable by position, then the scalars; one the expression does not read keeps its place
  // under a leading _.
  const fn = (names: string[], fields: ExprField[], body: string, bodyReads: string[] = []): RangeFunction => {
    const read = new Set<string>(bodyReads);
    for (const f of fields) if (k.exprs[f]) variablesOf(k.exprs[f]!, read);
    const params = [...names, ...k.roles.scalars].map((n) => `${read.has(n) ? n : `_${n}`}: R.Maybe`).join(', ');
    return { params, body };
  };
  switch (k.family) {
    case 'map':
      return { value: fn(['x'], ['expr'], range('expr')) };
    case 'cwise':
      return { value: fn(['a', 'b'], ['expr'], range('expr')) };
    case 'merge': {
      // A union takes only_a / only_b where one side is missing, an intersection never does.
      const union = k.join === 'union';
      return {
        value: union
          ? fn(
              ['a', 'b'],
              ['only_a', 'only_b', 'expr'],
              `R.join(R.join(${range('only_a')}, ${range('only_b')}), ${range('expr')})`,
            )
          : fn(['a', 'b'], ['expr'], range('expr')),
        keep: fn(['out', 'a', 'b'], ['keep'], k.exprs.keep ? range('keep') : 'R.cond()'),
      };
    }
    case 'reduce':
      return {
        init: fn([], ['init'], range('init')),
        combine: fn(['acc', 'x'], ['combine'], range('combine')),
        finalize: k.exprs.finalize
          ? fn(['acc', 'count'], ['finalize'], range('finalize'))
          : fn(['acc', 'count'], [], 'acc', ['acc']),
      };
  }
}
