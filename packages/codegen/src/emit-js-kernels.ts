import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { tsHeader } from './header.js';
import { formatTs } from './ts-file.js';
import { camelCase, pascalCase } from './naming.js';
import { emitJs } from './expr/emit-js.js';
import { variablesOf } from './expr/variables.js';
import type { CompiledKernel, ExprField } from './expr/family.js';
import type { Expr } from './expr/ast.js';
import { exprText, variable } from './expr/derive.js';
import { UPSTREAM, type DerivedGradient, type VjpField } from './gradient-specs.js';
import { selectsValue } from './expr/selection.js';
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
    if (s.compiled)
      files.set(`${s.name}.ts`, formatTs(`${s.name}.ts`, template(s.compiled.family)(contextOf(s, s.compiled))));
    if (s.derived)
      files.set(
        `${s.name}.ts`,
        formatTs(`${s.name}.ts`, template(`${s.derived.kernel.family}-grad`)(gradientContextOf(s, s.derived))),
      );
  }
  return files;
}

/** Which variables some expressions read, as flags a template declares its locals by (an unread local is an error). */
function readsOf(...exprs: (Expr | undefined)[]): Record<string, boolean> {
  const read = new Set<string>();
  for (const e of exprs) if (e) variablesOf(e, read);
  return Object.fromEntries([...read].map((v) => [v, true]));
}

/** A derived gradient kernel's template context: the forward expressions and the vector-Jacobian products per dtype. */
function gradientContextOf(s: LoadedSpec, d: DerivedGradient) {
  const k = d.kernel;
  const vars = Object.fromEntries([...VARS, UPSTREAM, ...k.roles.scalars].map((v) => [v, v]));
  const v = d.vjps;
  const code = (e: Expr | undefined, dtype: DTypeName) => (e ? emitJs(e, dtype, vars) : '0');
  const keep = k.exprs.keep;
  const needsEnd = k.implicitZeros === 'include' || v.finalize !== undefined;
  const readsFinalize = readsOf(v.finalize);
  const readsZeroStep = readsOf(v.acc);
  const readsBackward = readsOf(v.x, v.acc);
  const finalizeAcc = v.finalize !== undefined && readsFinalize.acc === true;
  const needsForward =
    readsBackward.acc === true || finalizeAcc || (k.implicitZeros === 'include' && readsZeroStep.acc === true);
  const readsForward = readsOf(k.exprs.combine);
  const scalarsIn = (...es: (Expr | undefined)[]) => k.roles.scalars.filter((sc) => readsOf(...es)[sc]);
  const readsBoth = readsOf(keep ? k.exprs.expr : undefined, keep, v.a, v.b);
  const readsOnlyA = readsOf(v.only_a);
  const readsOnlyB = readsOf(v.only_b);
  return {
    header: tsHeader.trim(),
    op: s.name,
    summary: s.summary.trim(),
    fn: camelCase(s.name),
    kernelType: `${pascalCase(s.name)}Kernel`,
    roles: k.roles,
    join: k.join ?? '',
    includeZeros: k.implicitZeros === 'include',
    selects: selectsValue(k),
    outputKind: d.output,
    denseOutput: d.output === 'dense',
    denseOperands: s.args.some((a) => a.type === 'sparse_or_dense'),
    vjpText: Object.fromEntries(Object.entries(v).flatMap(([f, e]) => (e ? [[f, exprText(e)]] : []))),
    // Which locals each loop reads.
    reads: readsOf(v.x, v.a, v.b),
    readsAny: { ...readsBoth, ...readsOnlyA, ...readsOnlyB },
    readsBoth,
    readsOnlyA,
    readsOnlyB,
    readsDenseForward: readsOf(k.exprs.expr),
    readsDenseBackward: readsOf(v.a, v.b),
    readsForward,
    readsBackward,
    readsFinalize,
    readsZeroStep,
    finalizeAcc,
    needsForward,
    backThroughEnd: needsEnd,
    usesX: (needsForward && readsForward.x === true) || readsBackward.x === true,
    scalarsRead: scalarsIn(v.x, v.a, v.b, v.acc, v.finalize, needsForward ? k.exprs.combine : undefined),
    sparseScalars: scalarsIn(keep ? k.exprs.expr : undefined, keep, v.a, v.b, v.only_a, v.only_b),
    denseScalars: scalarsIn(k.exprs.expr, v.a, v.b),
    cases: d.dtypes.map((dtype) => ({
      dtype,
      storage: STORAGE[dtype],
      round: dtype === 'float32' ? 'Math.fround' : '',
      vjp: Object.fromEntries((Object.keys(v) as VjpField[]).map((f) => [f, v[f] ? code(v[f], dtype) : ''])),
      // cwise: the dense operand's gradient gathers each entry's part, rounded as the dtype adds.
      accumulateB: v.b
        ? emitJs({ kind: 'binary', op: '+', left: variable('$prev'), right: v.b, pos: 0 }, dtype, {
            ...vars,
            $prev: '$ob[$p]',
          })
        : '',
      expr: code(k.exprs.expr, dtype),
      keep: keep ? code(keep, dtype) : '',
      init: code(k.exprs.init, dtype),
      combine: code(k.exprs.combine, dtype),
    })),
  };
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
