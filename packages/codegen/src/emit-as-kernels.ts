import { VariableDeclarationKind } from 'ts-morph';
import { tsHeader } from './header.js';
import { compileTemplate } from './template.js';
import { buildTsFile } from './ts-file.js';
import { AS_TYPE, emitAs } from './expr/emit-as.js';
import type { CompiledKernel, ExprField } from './expr/family.js';
import type { Expr } from './expr/ast.js';
import { exprText } from './expr/derive.js';
import { UPSTREAM, type DerivedGradient } from './gradient-specs.js';
import { selectsValue } from './expr/selection.js';
import type { DTypeName, LoadedSpec } from './spec-types.js';

const SHIFT: Partial<Record<DTypeName, number>> = { float32: 2, float64: 3, int32: 2, int64: 3 };
const VARS = ['a', 'b', 'x', 'acc', 'out', 'count'];
// The expression runtime's calls that can record a failure (integer division by zero, a negative integer power).
const FAILS = /\b(idiv|ipow)</;

type Family = LoadedSpec & { compiled: CompiledKernel };
const families = (specs: LoadedSpec[]) => specs.filter((s): s is Family => s.compiled !== undefined);
type Derived = LoadedSpec & { derived: DerivedGradient };
const derivedOf = (specs: LoadedSpec[]) => specs.filter((s): s is Derived => s.derived !== undefined);

/** A derived gradient op's entry in the template: its forward kernel's expressions and its vector-Jacobian products. */
function gradientOp(s: Derived) {
  const d = s.derived;
  const k = d.kernel;
  const vars = Object.fromEntries([...VARS, UPSTREAM, ...k.roles.scalars].map((v) => [v, v]));
  const code = (e: Expr | undefined, dt: DTypeName) => (e ? emitAs(e, dt, vars) : '');
  return {
    op: s.name,
    family: `${k.family}_grad`,
    union: k.join === 'union',
    join: k.join ?? '',
    denseOperands: s.args.some((a) => a.type === 'sparse_or_dense'),
    includeZeros: k.implicitZeros === 'include',
    backThroughEnd: k.implicitZeros === 'include' || d.vjps.finalize !== undefined,
    selects: selectsValue(k),
    scalars: k.roles.scalars,
    vjpText: Object.fromEntries(Object.entries(d.vjps).flatMap(([f, e]) => (e ? [[f, exprText(e)]] : []))),
    cases: d.dtypes.map((dtype) => ({
      dtype,
      type: AS_TYPE[dtype],
      shift: SHIFT[dtype],
      vjp: Object.fromEntries(Object.entries(d.vjps).map(([f, e]) => [f, code(e, dtype)])),
      expr: code(k.exprs.expr, dtype),
      keep: code(k.exprs.keep, dtype) || 'true',
      init: code(k.exprs.init, dtype),
      combine: code(k.exprs.combine, dtype),
    })),
  };
}

/** `kernels-as/assembly/generated/families.ts`: every expression-family op as AssemblyScript, one function per dtype. */
export function emitAsFamilies(specs: LoadedSpec[], templatePath: string): string {
  const template = compileTemplate(templatePath);
  const ops = families(specs).map((s) => {
    const k = s.compiled;
    const vars = Object.fromEntries([...VARS, ...k.roles.scalars].map((v) => [v, v]));
    const code = (f: ExprField, dt: DTypeName) => (k.exprs[f] ? emitAs(k.exprs[f]!, dt, vars) : '');
    return {
      op: s.name,
      family: k.family,
      union: k.join === 'union',
      join: k.join ?? '',
      denseOperands: s.args.some((a) => a.type === 'sparse_or_dense'),
      includeZeros: k.implicitZeros === 'include',
      denseOutput: s.outputs[0].type === 'dense',
      scalars: k.roles.scalars,
      source: s.kernel,
      cases: k.dtypes.map((dtype) => ({
        dtype,
        type: AS_TYPE[dtype],
        shift: SHIFT[dtype],
        expr: code('expr', dtype),
        only_a: code('only_a', dtype),
        only_b: code('only_b', dtype),
        keep: code('keep', dtype) || 'true',
        init: code('init', dtype),
        combine: code('combine', dtype),
        finalize: code('finalize', dtype),
        // The matrix merge keeps no failing entry's place: only for expressions that cannot fail.
        pairs:
          k.family === 'merge' &&
          !(['expr', 'only_a', 'only_b', 'keep'] as const).some((f) => FAILS.test(code(f, dtype))),
      })),
    };
  });
  return template({ header: tsHeader.trim(), ops: [...ops, ...derivedOf(specs).map(gradientOp)] });
}

/**
 * `<backend>/src/generated/family-ops.ts`: what a backend's host side needs to lay out and call each family kernel,
 * with the derived gradients' where the backend generates them (wasm; the GPU runs them on the JS kernels).
 */
export function emitAsFamilyTable(specs: LoadedSpec[], { gradients }: { gradients: boolean }): string {
  const table = Object.fromEntries([
    ...families(specs).map((s) => [
      s.name,
      {
        family: s.compiled.family,
        roles: s.compiled.roles,
        dtypes: s.compiled.dtypes,
        output: s.outputs[0].name,
        outputKind: s.outputs[0].type === 'dense' ? 'dense' : 'sparse',
      },
    ]),
    // A derived gradient: its forward kernel's roles, and the kind of the forward output (of which grad is the gradient).
    ...(gradients ? derivedOf(specs) : []).map((s) => [
      s.name,
      {
        family: `${s.derived.kernel.family}_grad`,
        roles: s.derived.kernel.roles,
        dtypes: s.derived.dtypes,
        output: s.outputs[0].name,
        outputKind: s.derived.output === 'dense' ? 'dense' : 'sparse',
      },
    ]),
  ]);
  return buildTsFile('family-ops.ts', (f) => {
    f.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: '@sparse/kernel-abi', namedImports: ['DType'] });
    f.addInterface({
      name: 'FamilyOp',
      isExported: true,
      docs: ['What a backend needs of an expression-family op to lay out and call its kernel.'],
      properties: [
        {
          name: 'family',
          type: "'cwise' | 'merge' | 'reduce' | 'map' | 'cwise_grad' | 'merge_grad' | 'reduce_grad' | 'map_grad'",
        },
        {
          name: 'roles',
          type: '{ sparse?: string; dense?: string; a?: string; b?: string; axes?: string; keepdims?: string; scalars: string[] }',
        },
        { name: 'dtypes', type: 'DType[]' },
        { name: 'output', type: 'string' },
        { name: 'outputKind', type: "'dense' | 'sparse'" },
      ],
    });
    f.addVariableStatement({
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: ['Every expression-family op, with the arguments that play each part in its kernel.'],
      declarations: [
        { name: 'FAMILY_OPS', type: 'Readonly<Record<string, FamilyOp>>', initializer: JSON.stringify(table, null, 2) },
      ],
    });
  });
}
