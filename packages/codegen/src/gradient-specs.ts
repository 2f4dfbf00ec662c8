import { validateCase } from '@sparse/case-format';
import type { Expr } from './expr/ast.js';
import { checkExpr } from './expr/check.js';
import { chain, derive, exprText, variable } from './expr/derive.js';
import { selectsValue } from './expr/selection.js';
import type { CompiledKernel } from './expr/family.js';
import { ExprError } from './expr/ast.js';
import { apiNameOf } from './naming.js';
import type { GradientBinding, GradientMeta } from './spec-format.js';
import type { ArgSpec, CheckSpec, DTypeName, LoadedSpec, OutputSpec } from './spec-types.js';

/** The vector-Jacobian products a derived gradient kernel computes, each over the forward variables and `grad`. */
export type VjpField = 'x' | 'a' | 'b' | 'only_a' | 'only_b' | 'acc' | 'finalize';

/**
 * The kernel of a gradient op derived from an expression-family op: the forward kernel (its family, roles and
 * expressions), the float dtypes it runs on, and per part the vector-Jacobian product `grad * d(expr)/d(var)`:
 * map `x`; cwise `a`, `b`; merge `a`, `b` (where both hold an entry), `only_a`, `only_b`; reduce `x` and `acc` (one
 * step of `combine`) and `finalize` (its last step, over acc).
 */
export interface DerivedGradient {
  forward: string;
  /** The kind of the forward op's output, of which `grad` is the gradient (of its stored values, if sparse). */
  output: 'dense' | 'sparse' | 'sparse_or_dense';
  kernel: CompiledKernel;
  dtypes: DTypeName[];
  vjps: Partial<Record<VjpField, Expr>>;
}

const FLOATS: readonly DTypeName[] = ['float32', 'float64'];
/** The name of the upstream gradient: an argument of every gradient op, and a variable of its expressions. */
export const UPSTREAM = 'grad';

type Report = (path: readonly (string | number)[], message: string) => void;

/** The vector-Jacobian products of a forward kernel's expressions, by part, simplified (derive.ts). */
function vjpsOf(k: CompiledKernel): Partial<Record<VjpField, Expr>> {
  const g = variable(UPSTREAM);
  const by = (e: Expr | undefined, wrt: string) => (e ? chain(g, derive(e, wrt)) : undefined);
  const e = k.exprs;
  switch (k.family) {
    case 'map':
      return { x: by(e.expr, 'x') };
    case 'cwise':
      return { a: by(e.expr, 'a'), b: by(e.expr, 'b') };
    case 'merge':
      return { a: by(e.expr, 'a'), b: by(e.expr, 'b'), only_a: by(e.only_a, 'a'), only_b: by(e.only_b, 'b') };
    case 'reduce':
      return { x: by(e.combine, 'x'), acc: by(e.combine, 'acc'), finalize: by(e.finalize, 'acc') };
  }
}

/** The tensor arguments a family kernel differentiates: its operands, in the order of the op's arguments. */
function operandsOf(k: CompiledKernel): string[] {
  const r = k.roles;
  return [r.sparse, r.dense, r.a, r.b].filter((x): x is string => x !== undefined);
}

/**
 * The gradient op codegen derives from an expression-family op that computes in a float dtype: `<op>_grad`, taking
 * the op's arguments and `grad` (the upstream gradient: of the output's stored values for a sparse output, of the
 * whole output for a dense one) and giving `<operand>_grad` for each operand (of a sparse operand's stored values).
 * It runs on the float dtypes of the op; its examples are the spec's `gradient.examples`.
 */
export function deriveGradientSpec(f: LoadedSpec, report: Report): LoadedSpec | undefined {
  const k = f.compiled!;
  const dtypes = k.dtypes.filter((d) => FLOATS.includes(d));
  if (!dtypes.length) {
    if (f.gradient) report(['gradient'], `${f.name} computes in no float dtype, so it has no gradient`);
    return undefined;
  }
  if (!f.gradient?.examples) {
    report(['gradient'], `the gradient of ${f.name} is derived from its expressions: give it gradient.examples`);
    return undefined;
  }
  for (const field of ['op', 'args', 'outputs'] as const)
    if (f.gradient[field] !== undefined)
      report(['gradient', field], `the gradient of an expression-family op is derived; give only its examples`);
  if (f.args.some((a) => a.name === UPSTREAM))
    report(['args'], `an argument named '${UPSTREAM}' would hide the upstream gradient of ${f.name}_grad`);

  const vjps = vjpsOf(k);
  const vars = ['a', 'b', 'x', 'acc', 'out', 'count', UPSTREAM, ...k.roles.scalars];
  for (const [part, e] of Object.entries(vjps)) {
    if (!e) continue;
    for (const dt of dtypes) {
      try {
        checkExpr(e, dt, vars, 'value');
      } catch (err) {
        if (!(err instanceof ExprError)) throw err;
        report(['kernel'], `the derivative for ${part} does not check for ${dt}: ${err.message}`);
      }
    }
  }

  const valueArg = f.args.find((a) => a.name === (k.roles.sparse ?? k.roles.a))!;
  const T = valueArg.dtype!;
  const name = `${f.name}_grad`;
  const output = f.outputs[0];
  const operands = operandsOf(k);
  const args: ArgSpec[] = [
    ...f.args,
    {
      name: UPSTREAM,
      type: 'dense',
      dtype: T,
      doc:
        output.type === 'sparse'
          ? `The gradient of a loss with respect to the stored values of \`${output.name}\` (one per stored entry, in its order).`
          : `The gradient of a loss with respect to \`${output.name}\` (its dense shape).`,
    },
  ];
  const outputs: OutputSpec[] = operands.map((arg) => ({
    name: `${arg}_grad`,
    type: 'dense',
    dtype: T,
    shape: { gradient_of: arg },
    doc: `The gradient with respect to \`${arg}\`: of its stored values if it is sparse, of the whole tensor if dense.`,
  }));
  const gradCheck: CheckSpec =
    k.family === 'map' || k.family === 'cwise'
      ? { rule: 'gradient_shape', grad: UPSTREAM, values_of: k.roles.sparse! }
      : { rule: 'gradient_shape', grad: UPSTREAM, output_of: f.name };
  const spec: LoadedSpec = {
    name,
    summary: `The gradient of ${f.name} (a vector-Jacobian product), derived from its expressions.`,
    doc: gradientDoc(f, k, vjps),
    dtypes: { ...f.dtypes, [T]: dtypes },
    args,
    outputs,
    checks: [...(f.checks ?? []), gradCheck],
    kernel: { family: 'gradient' },
    examples: f.gradient.examples,
    file: f.file,
    apiName: apiNameOf(name),
    apiAliases: [],
    entries: {},
    order: {},
    derived: { forward: f.name, output: output.type as DerivedGradient['output'], kernel: k, dtypes, vjps },
  };
  const exampleOf = { op: name, args, outputs };
  const names = new Set<string>();
  spec.examples.forEach((ex, i) => {
    validateCase(ex, (p, m) => report(['gradient', 'examples', i, ...p], m), exampleOf);
    if (names.has(ex.name)) report(['gradient', 'examples', i, 'name'], `the example name '${ex.name}' is used twice`);
    names.add(ex.name);
  });
  const shown = new Set(spec.examples.flatMap((ex) => Object.keys(ex.expect ?? {})));
  for (const o of outputs)
    if (!shown.has(o.name)) report(['gradient', 'examples'], `no example shows the output '${o.name}' of ${name}`);
  return spec;
}

/** The op reference's account of a derived gradient: what each operand's gradient is, as formulas. */
function gradientDoc(f: LoadedSpec, k: CompiledKernel, v: Partial<Record<VjpField, Expr>>): string {
  const t = (e: Expr | undefined) => `\`${e ? exprText(e) : '0'}\``;
  const r = k.roles;
  const intro =
    `The gradient of \`${f.name}\` with respect to each operand, given \`grad\`, the gradient of a loss with respect ` +
    `to its output: what TensorFlow's registered gradient of the op computes, derived by codegen from the op's ` +
    `expressions (symbolic differentiation; at a tie \`min\` passes the gradient to its first operand where ` +
    `x <= y and \`max\` where x >= y). It runs on float32 and float64, each operation rounded as the forward kernel ` +
    `rounds it.`;
  switch (k.family) {
    case 'map':
      return `${intro}\n\nFor each stored entry, with \`x\` its value and \`grad\` the gradient of its output value: \`${r.sparse}_grad\` = ${t(v.x)}.`;
    case 'cwise':
      return (
        `${intro}\n\nFor each stored entry, with \`a\` its value, \`b\` the element of \`${r.dense}\` broadcast to it and ` +
        `\`grad\` the gradient of its output value: \`${r.sparse}_grad\` = ${t(v.a)}; and ${t(v.b)} is added into ` +
        `\`${r.dense}_grad\` at the element of \`${r.dense}\` that entry read (a broadcast element sums the entries it ` +
        `reached, in their order).`
      );
    case 'merge':
      return (
        `${intro}\n\nTwo sparse operands: the merge is walked again; where both hold an entry that the output keeps, ` +
        `\`${r.a}_grad\` = ${t(v.a)} and \`${r.b}_grad\` = ${t(v.b)} with \`grad\` the gradient of that output value; ` +
        `where only one does, ${t(v.only_a)} (only a) or ${t(v.only_b)} (only b); an entry the output drops gets 0. ` +
        `\`grad\` must have one value per stored entry of the output (an InvalidArgumentError otherwise).` +
        (f.args.some((a) => a.type === 'sparse_or_dense')
          ? ` One dense operand: \`grad\` has the output's dense shape; each stored entry's operand gets the first ` +
            `formula at its position, the dense operand \`grad\` where no entry combined and the second where one did.`
          : '')
      );
    case 'reduce':
      if (selectsValue(k))
        return (
          `The gradient of \`${f.name}\` with respect to the stored values of \`${r.sparse}\`, given \`grad\`, the ` +
          `gradient of a loss with respect to its output. TensorFlow registers none for the sparse op; this is its ` +
          `gradient of the dense reduction (math_grad.py, Max and Min) over the stored values: each stored value equal ` +
          `to its group's output gets \`(1 / n) * grad\`, n being how many of the group's values equal it (ties share ` +
          `equally; a lone -inf or +inf is its group's output too), and every other value \`0 * grad\` (so a NaN or ` +
          `infinite \`grad\` gives NaN there, as in TensorFlow). A group whose output is NaN (it holds a NaN) ` +
          `equals none of its values: each of them gets \`0 / 0 * grad\`, NaN. An empty group passes nothing. It ` +
          `runs on float32 and float64, each operation rounded as the dtype rounds it.` +
          (f.outputs[0].type === 'sparse'
            ? ' `grad` has one value per stored entry of the output (an InvalidArgumentError otherwise).'
            : '')
        );
      return (
        `${intro}\n\nEach group's steps are taken back in reverse order: starting from the gradient of the group's ` +
        `output${v.finalize ? ` (through its last step, ${t(v.finalize)})` : ''}, each stored value x reached from ` +
        `accumulator acc gets ${t(v.x)} and passes ${t(v.acc)} to the step before` +
        (k.implicitZeros === 'include' ? ` (the group's implicit zeros take their step first)` : '') +
        `. An empty group (a 0 in a dense output) passes nothing.` +
        (f.outputs[0].type === 'sparse'
          ? ' `grad` has one value per stored entry of the output (an InvalidArgumentError otherwise).'
          : '')
      );
  }
}

/**
 * Resolves each op's gradient into what the runtime runs: a family op's derived `<op>_grad`; a hand-written op's
 * named gradient op, each of whose arguments is bound (by `args`, else by name: a forward argument, `grad`, a
 * forward output) and each of whose named outputs exists. Problems go to `report` of the forward spec.
 */
export function resolveGradient(
  f: LoadedSpec,
  byName: ReadonlyMap<string, LoadedSpec>,
  report: Report,
): GradientMeta | undefined {
  const g = f.gradient;
  if (f.compiled) {
    const grad = byName.get(`${f.name}_grad`);
    if (!grad?.derived) return undefined;
    return {
      op: grad.name,
      args: Object.fromEntries([
        ...f.args.map((a) => [a.name, { arg: a.name }]),
        [UPSTREAM, { upstream: true }],
      ]) as Record<string, GradientBinding>,
      outputs: Object.fromEntries(grad.outputs.map((o) => [o.name.slice(0, -'_grad'.length), o.name])),
    };
  }
  if (!g) return undefined;
  if (g.examples) report(['gradient', 'examples'], `examples of a named gradient op go in its own spec (${g.op})`);
  if (!g.op || !g.outputs) {
    report(
      ['gradient'],
      'a hand-written op names its gradient op (`op`) and which output is whose gradient (`outputs`)',
    );
    return undefined;
  }
  const target = byName.get(g.op);
  if (!target) {
    report(['gradient', 'op'], `no spec is named ${g.op}`);
    return undefined;
  }
  const fwdArg = new Map(f.args.map((a) => [a.name, a]));
  const fwdOutputs = new Set(f.outputs.map((o) => o.name));
  const bindName = (s: string, at: (string | number)[]): GradientBinding | undefined => {
    if (fwdArg.has(s)) return { arg: s };
    if (s === UPSTREAM) return { upstream: true };
    if (fwdOutputs.has(s)) return { output: s };
    report(at, `'${s}' is neither an argument nor an output of ${f.name}, nor ${UPSTREAM}`);
    return undefined;
  };
  const args: Record<string, GradientBinding> = {};
  for (const name of Object.keys(g.args ?? {}))
    if (!target.args.some((a) => a.name === name))
      report(['gradient', 'args', name], `${g.op} has no argument '${name}'`);
  for (const a of target.args) {
    const source = g.args?.[a.name];
    const at = ['gradient', 'args', a.name];
    let b: GradientBinding | undefined;
    if (typeof source === 'string') b = bindName(source, at);
    else if (source && 'not' in source) {
      if (fwdArg.get(source.not)?.type !== 'bool') report(at, `'${source.not}' is not a bool argument of ${f.name}`);
      else b = { not: source.not };
    } else if (source && 'dim' in source) {
      if (!['sparse', 'dense', 'sparse_or_dense'].includes(fwdArg.get(source.dim[0])?.type ?? ''))
        report(at, `'${source.dim[0]}' is not a tensor argument of ${f.name}`);
      else b = { dim: source.dim };
    } else if (fwdArg.has(a.name) || a.name === UPSTREAM || fwdOutputs.has(a.name)) b = bindName(a.name, at);
    if (b) args[a.name] = b;
    else if (source === undefined && a.default === undefined)
      report(['gradient'], `the argument '${a.name}' of ${g.op} is bound to nothing: name its source in gradient.args`);
  }
  for (const [arg, out] of Object.entries(g.outputs)) {
    // A scalar argument's gradient is a rank-0 dense tensor.
    const type = fwdArg.get(arg)?.type ?? '';
    if (!['sparse', 'dense', 'sparse_or_dense', 'sparse_or_null', 'csr', 'scalar'].includes(type))
      report(['gradient', 'outputs', arg], `'${arg}' is neither a tensor nor a scalar argument of ${f.name}`);
    if (!target.outputs.some((o) => o.name === out))
      report(['gradient', 'outputs', arg], `${g.op} has no output '${out}'`);
  }
  return { op: g.op, args, outputs: g.outputs };
}

/** The ops that are another op's gradient: its `gradient.op`, or the `<op>_grad` derived from its expressions. */
export function gradientOps(specs: readonly LoadedSpec[]): Set<string> {
  return new Set(specs.flatMap((t) => (t.gradient ? [t.gradient.op ?? `${t.name}_grad`] : [])));
}
