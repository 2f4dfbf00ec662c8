import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { tsHeader } from './header.js';
import { formatTs } from './ts-file.js';
import { camelCase, pascalCase } from './naming.js';
import { emitJs } from './expr/emit-js.js';
import { variablesOf } from './expr/variables.js';
import type { CompiledKernel, ExprField } from './expr/family.js';
import type { DTypeName, LoadedSpec } from './spec-types.js';

const STORAGE: Partial<Record<DTypeName, string>> = {
  float32: 'Float32Array',
  float64: 'Float64Array',
  int32: 'Int32Array',
  int64: 'BigInt64Array',
};

// Expression variables read as plain JS names of the same spelling; the templates keep their own locals `$`-prefixed.
const VARS = ['a', 'b', 'x', 'acc', 'out', 'count'];

/** The JS kernel of each expression-family op, from its family's handlebars template: `generated/kernels/<op>.ts`. */
export function emitJsFamilyKernels(specs: LoadedSpec[], templatesDir: string): Map<string, string> {
  const files = new Map<string, string>();
  const templates = new Map<string, HandlebarsTemplateDelegate>();
  const template = (family: string) => {
    if (!templates.has(family)) {
      templates.set(
        family,
        Handlebars.compile(readFileSync(join(templatesDir, `${family}.ts.hbs`), 'utf8'), {
          noEscape: true,
          strict: true,
        }),
      );
    }
    return templates.get(family)!;
  };
  for (const s of specs) {
    if (!s.compiled) continue;
    files.set(`${s.name}.ts`, formatTs(`${s.name}.ts`, template(s.compiled.family)(contextOf(s, s.compiled))));
  }
  return files;
}

function contextOf(s: LoadedSpec, k: CompiledKernel) {
  const vars = Object.fromEntries([...VARS, ...k.roles.scalars].map((v) => [v, v]));
  const code = (field: ExprField, dtype: DTypeName) => {
    const e = k.exprs[field];
    return e ? emitJs(e, dtype, vars) : '';
  };
  // The scalars an expression reads: a merge's dense path computes only `expr`, its sparse path every field.
  const scalarsIn = (fields: ExprField[]) => {
    const read = new Set<string>();
    for (const f of fields) if (k.exprs[f]) variablesOf(k.exprs[f]!, read);
    return k.roles.scalars.filter((sc) => read.has(sc));
  };
  const output = s.outputs[0];
  return {
    header: tsHeader.trim(),
    op: s.name,
    summary: s.summary.trim(),
    fn: camelCase(s.name),
    kernelType: `${pascalCase(s.name)}Kernel`,
    output: output.name,
    outputKind: output.type === 'dense' ? 'dense' : 'sparse',
    denseOutput: output.type === 'dense',
    denseOperands: s.args.some((a) => a.type === 'sparse_or_dense'),
    roles: k.roles,
    sparseScalars: scalarsIn(['expr', 'only_a', 'only_b', 'keep']),
    denseScalars: scalarsIn(['expr']),
    join: k.join ?? '',
    includeZeros: k.implicitZeros === 'include',
    source: { ...s.kernel, only_a: s.kernel.only_a ?? 'expr with b = 0', only_b: s.kernel.only_b ?? 'expr with a = 0' },
    cases: k.dtypes.map((dtype) => ({
      dtype,
      storage: STORAGE[dtype],
      scalarType: dtype === 'int64' ? 'bigint' : 'number',
      zero: dtype === 'int64' ? '0n' : '0',
      countCast: dtype === 'int64' ? 'BigInt' : 'Number',
      expr: code('expr', dtype),
      only_a: code('only_a', dtype),
      only_b: code('only_b', dtype),
      keep: code('keep', dtype),
      init: code('init', dtype),
      combine: code('combine', dtype),
      finalize: code('finalize', dtype),
    })),
  };
}
