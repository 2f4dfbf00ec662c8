import { readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { validateCase } from '@sparse/case-format';
import { Ajv, type ErrorObject } from 'ajv';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { specSchema } from './schema.js';
import { SpecError, fieldPath, type SpecProblem } from './spec-error.js';
import { apiNameOf } from './naming.js';
import { DTYPE_NAMES, type ArgSpec, type CheckSpec, type LoadedSpec, type OpSpec } from './spec-types.js';
import { compileKernel } from './expr/family.js';
import { entriesBounds } from './entries-bound.js';
import { checkScratch } from './scratch-terms.js';
import { outputOrders } from './output-order.js';
import { CHECK_RULES, type CheckRuleDecl, type Field } from './check-rules.js';
import { shapeRuleProblems } from './shape-rules.js';
import { keepsZero } from './expr/zero-check.js';
import { deriveGradientSpec, resolveGradient } from './gradient-specs.js';

const ajv = new Ajv({
  allErrors: true,
  strict: true,
  allowUnionTypes: true,
  discriminator: true,
  strictRequired: false,
  verbose: true,
});
const validateSchema = ajv.compile(specSchema);

const TENSOR_ARGS = new Set([
  'sparse',
  'sparse_or_null',
  'dense',
  'scalar',
  'sparse_or_dense',
  'sparse_list',
  'sparse_or_sparse_list',
  'csr',
  'sparse_or_dense_list',
]);

/** Reads every `*.yaml` under `specsDir`, validates each and all of them together; throws one SpecError listing every problem. */
export function loadSpecs(specsDir: string, displayRoot = process.cwd()): LoadedSpec[] {
  const files = readdirSync(specsDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const problems: SpecProblem[] = [];
  const specs: LoadedSpec[] = [];
  const reports = new Map<LoadedSpec, Report>();
  for (const f of files) {
    const path = join(specsDir, f);
    const loaded = loadSpecFile(path, relative(displayRoot, path) || path, problems);
    if (!loaded) continue;
    specs.push(loaded.spec);
    reports.set(loaded.spec, loaded.report);
    // A derived gradient op follows its op.
    if (loaded.gradient) specs.push(loaded.gradient);
  }
  const byName = new Map(specs.map((s) => [s.name, s]));
  for (const [s, report] of reports) s.gradientOf = resolveGradient(s, byName, report);
  checkAcrossSpecs(specs, problems);
  if (problems.length) throw new SpecError(problems);
  return specs;
}

function loadSpecFile(
  path: string,
  display: string,
  problems: SpecProblem[],
): { spec: LoadedSpec; gradient?: LoadedSpec; report: Report } | undefined {
  const lines = new LineCounter();
  const doc = parseDocument(readFileSync(path, 'utf8'), { lineCounter: lines, prettyErrors: false });
  const lineOf = (p: readonly (string | number)[]) => locate(doc, lines, p);
  const report = (p: readonly (string | number)[], message: string) =>
    problems.push({ file: display, field: fieldPath(p), line: lineOf(p), message });

  if (doc.errors.length) {
    for (const e of doc.errors) {
      problems.push({
        file: display,
        field: '',
        line: lines.linePos(e.pos[0]).line,
        message: `YAML: ${e.message.split('\n')[0]}`,
      });
    }
    return undefined;
  }
  const raw: unknown = doc.toJS();
  if (!validateSchema(raw)) {
    for (const e of validateSchema.errors ?? []) {
      const p = pointerToPath(e.instancePath);
      const at =
        e.keyword === 'additionalProperties'
          ? [...p, String(e.params.additionalProperty)]
          : e.keyword === 'discriminator'
            ? [...p, String(e.params.tag)]
            : p;
      report(at, schemaMessage(e));
    }
    return undefined;
  }
  const spec = raw as OpSpec;
  const before = problems.length;
  if (basename(path) !== `${spec.name}.yaml`)
    report(['name'], `the op id '${spec.name}' must match the file name ${basename(path)}`);
  checkSpec(spec, report);
  const compiled = compileKernel(spec, report, keepsZero);
  const entries = entriesBounds(spec, compiled, report);
  checkScratch(spec, report);
  const order = outputOrders(spec, compiled, report);
  if (problems.length > before) return undefined;
  const loaded: LoadedSpec = {
    ...spec,
    compiled,
    entries,
    order,
    checks: spec.checks ?? [],
    file: display,
    apiName: spec.api?.name ?? apiNameOf(spec.name),
    apiAliases: spec.api?.aliases ?? [],
  };
  const gradient = compiled ? deriveGradientSpec(loaded, report) : undefined;
  if (problems.length > before) return undefined;
  return { spec: loaded, gradient, report };
}

type Report = (path: readonly (string | number)[], message: string) => void;

function checkSpec(spec: OpSpec, report: Report): void {
  if (spec.kernel.family === 'gradient')
    report(
      ['kernel', 'family'],
      "a gradient kernel is derived by codegen: declare the op's gradient in its own spec (`gradient:`)",
    );
  checkDifferentiability(spec, report);
  const dtypeVars = Object.keys(spec.dtypes);
  const checkDtype = (d: string | undefined, p: (string | number)[], required: boolean) => {
    if (d === undefined) {
      if (required) report(p, 'a tensor needs a dtype: a dtype variable of `dtypes` or a concrete dtype');
      return;
    }
    if (!dtypeVars.includes(d) && !(DTYPE_NAMES as readonly string[]).includes(d)) {
      report(
        p,
        `unknown dtype '${d}' (dtype variables: ${dtypeVars.join(', ') || 'none'}; dtypes: ${DTYPE_NAMES.join(', ')})`,
      );
    }
  };

  const argByName = new Map<string, ArgSpec>();
  const seen = new Set<string>();
  spec.args.forEach((a, i) => {
    for (const n of [a.name, ...(a.aliases ?? [])]) {
      if (seen.has(n)) report(['args', i, 'name'], `the argument name '${n}' is used twice`);
      seen.add(n);
    }
    argByName.set(a.name, a);
    const isTensor = TENSOR_ARGS.has(a.type);
    if (isTensor) checkDtype(a.dtype, ['args', i, 'dtype'], true);
    else if (a.type === 'dtype') checkDtypeArg(spec, a, i, report);
    else if (a.dtype !== undefined) report(['args', i, 'dtype'], `a '${a.type}' argument takes no dtype`);
    if (a.default === 'zero' && a.type !== 'scalar')
      report(['args', i, 'default'], "'zero' is a default only for a scalar");
    if (a.bounds !== undefined && !['sparse', 'sparse_or_sparse_list'].includes(a.type))
      report(['args', i, 'bounds'], 'only a sparse argument has bounds to check');
    if (a.one_of !== undefined && a.type !== 'string')
      report(['args', i, 'one_of'], 'only a string argument lists the values it takes');
    if (a.cast_to !== undefined) {
      const floats = (v: string | undefined) =>
        v !== undefined &&
        (spec.dtypes[v] ?? []).length > 0 &&
        spec.dtypes[v].every((d) => d === 'float32' || d === 'float64');
      if (!floats(a.cast_to))
        report(['args', i, 'cast_to'], `'${a.cast_to}' is not a float dtype variable of the spec`);
      if (a.dtype === a.cast_to || !floats(a.dtype))
        report(['args', i, 'cast_to'], 'only an argument of a float dtype variable of its own is cast to another');
    }
    if (a.none_means_default && (a.default === undefined || a.default === null))
      report(['args', i, 'none_means_default'], 'only an argument with a default other than null reads null as it');
    if (a.type === 'string' && typeof a.default === 'string' && a.one_of && !a.one_of.includes(a.default))
      report(['args', i, 'default'], `'${a.default}' is not one of ${a.one_of.join(', ')}`);
  });
  checkDtypeDefaults(spec, report);
  checkDtypeFallbacks(spec, report);
  checkPerItemDtypes(spec, report);
  const outNames = new Set<string>();
  spec.outputs.forEach((o, i) => {
    if (outNames.has(o.name)) report(['outputs', i, 'name'], `the output name '${o.name}' is used twice`);
    outNames.add(o.name);
    checkDtype(o.dtype, ['outputs', i, 'dtype'], true);
    const rule = o.shape;
    // The byte budget counts a dense output by its shape before the kernel runs: the spec must give it.
    if (o.type === 'dense' && 'computed' in rule)
      report(['outputs', i, 'shape'], 'a dense output needs a shape rule the runtime computes, not `computed`');
    for (const p of shapeRuleProblems(rule, (name) => argByName.get(name)))
      report(['outputs', i, 'shape', ...p.path], p.message);
  });
  (spec.checks ?? []).forEach((c, i) => checkCheck(c, i, argByName, report));
  const wideAxis = spec.kernel.wide_axis;
  if (wideAxis !== undefined) {
    if (spec.kernel.wide_dims !== 'compared')
      report(['kernel', 'wide_axis'], 'wide_axis names the one dim a `wide_dims: compared` kernel computes with');
    if (argByName.get(wideAxis)?.type !== 'int')
      report(['kernel', 'wide_axis'], `'${wideAxis}' is not an int argument`);
  }

  const caseNames = new Set<string>();
  const exampleOf = { op: spec.name, args: spec.args, outputs: spec.outputs };
  spec.examples.forEach((ex, i) => {
    validateCase(ex, (p, m) => report(['examples', i, ...p], m), exampleOf);
    if (caseNames.has(ex.name)) report(['examples', i, 'name'], `the example name '${ex.name}' is used twice`);
    caseNames.add(ex.name);
  });
  // Whatever else is wrong with an example, the outputs it names count as shown.
  const usedOutputs = new Set(spec.examples.flatMap((ex) => Object.keys(ex.expect ?? {})));
  spec.outputs.forEach((o, i) => {
    if (!usedOutputs.has(o.name)) report(['outputs', i, 'name'], `no example shows the output '${o.name}'`);
  });
}

/** An op TensorFlow does not differentiate says why, and has no gradient; one whose gradient TensorFlow registers is differentiable. */
function checkDifferentiability(spec: OpSpec, report: Report): void {
  if (spec.not_differentiable === undefined) return;
  if (spec.gradient)
    report(['not_differentiable'], 'the op has a `gradient:`, so it is differentiable: give one of the two, not both');
  const registered = spec.tensorflow?.gradient;
  if (registered)
    report(
      ['not_differentiable'],
      `TensorFlow registers the op's gradient (tensorflow.gradient: ${registered}): give it a \`gradient:\` instead`,
    );
}

/**
 * The items of a sparse_or_dense_list take their dtypes one by one (TensorFlow's list(type) attrs), so its dtype
 * variable stands for a set of dtypes, never for one: no other argument or output may use it.
 */
function checkPerItemDtypes(spec: OpSpec, report: Report): void {
  spec.args.forEach((a, i) => {
    if (a.type !== 'sparse_or_dense_list' || a.dtype === undefined) return;
    if (!(a.dtype in spec.dtypes)) {
      report(['args', i, 'dtype'], `a sparse_or_dense_list takes a dtype variable (its items' dtypes), not ${a.dtype}`);
      return;
    }
    const others = [
      ...spec.args.filter((b) => b !== a && b.dtype === a.dtype).map((b) => b.name),
      ...spec.outputs.filter((o) => o.dtype === a.dtype).map((o) => o.name),
    ];
    if (others.length)
      report(
        ['args', i, 'dtype'],
        `the items of ${a.name} take their dtypes from ${a.dtype} one by one, so ${a.dtype} cannot also be the dtype of ${others.join(', ')}`,
      );
  });
}

// The argument types a plain value is converted to a tensor for: where a dtype variable's default can apply.
const PLAIN_TENSOR_ARGS = new Set(['dense', 'scalar', 'sparse_or_dense']);

/** Each default is of a dtype variable, one of the dtypes it allows, and of a variable a plain value can take. */
function checkDtypeDefaults(spec: OpSpec, report: Report): void {
  for (const [v, d] of Object.entries(spec.dtype_defaults ?? {})) {
    const allowed = spec.dtypes[v];
    if (!allowed) {
      report(
        ['dtype_defaults', v],
        `'${v}' is not a dtype variable (dtype variables: ${Object.keys(spec.dtypes).join(', ') || 'none'})`,
      );
    } else if (!allowed.includes(d)) {
      report(['dtype_defaults', v], `${d} is not one of ${v}'s dtypes {${allowed.join(', ')}}`);
    } else if (!spec.args.some((a) => a.dtype === v && PLAIN_TENSOR_ARGS.has(a.type))) {
      report(
        ['dtype_defaults', v],
        `no dense, scalar or sparse_or_dense argument takes ${v}: a default applies only to a plain value converted to a tensor`,
      );
    }
  }
}

/** A `dtype` argument names a dtype variable, which its value binds; its default is one of the variable's dtypes. */
function checkDtypeArg(spec: OpSpec, a: ArgSpec, i: number, report: Report): void {
  const allowed = a.dtype === undefined ? undefined : spec.dtypes[a.dtype];
  if (!allowed) {
    report(['args', i, 'dtype'], 'a dtype argument needs `dtype`: the dtype variable its value binds');
    return;
  }
  if (a.default !== undefined && !(allowed as unknown[]).includes(a.default))
    report(
      ['args', i, 'default'],
      `${JSON.stringify(a.default)} is not one of ${a.dtype}'s dtypes {${allowed.join(', ')}}`,
    );
}

/** Each fallback is from a dtype variable to another, whose every dtype the first allows. */
function checkDtypeFallbacks(spec: OpSpec, report: Report): void {
  const vars = Object.keys(spec.dtypes);
  for (const [v, from] of Object.entries(spec.dtype_fallbacks ?? {})) {
    const allowed = spec.dtypes[v];
    const fallback = spec.dtypes[from];
    if (!allowed || !fallback || v === from) {
      report(
        ['dtype_fallbacks', v],
        `needs two different dtype variables (dtype variables: ${vars.join(', ') || 'none'})`,
      );
      continue;
    }
    const missing = fallback.filter((d) => !allowed.includes(d));
    if (missing.length)
      report(['dtype_fallbacks', v], `${v} does not allow ${missing.join(', ')}, which ${from} may be`);
  }
}

/** A check against the op's arguments: each field that names an argument names one of the types its rule takes. */
function checkCheck(c: CheckSpec, i: number, args: Map<string, ArgSpec>, report: Report): void {
  const decl = CHECK_RULES[c.rule] as CheckRuleDecl<CheckSpec>;
  for (const [field, d] of Object.entries(decl.fields as Record<string, Field>)) {
    const value = (c as Record<string, unknown>)[field];
    if (value === undefined || (d.kind !== 'arg' && d.kind !== 'arg_pair')) continue;
    for (const name of d.kind === 'arg' ? [value as string] : (value as string[])) {
      const a = args.get(name);
      if (!a) report(['checks', i, field], `unknown argument '${name}'`);
      else if (!d.types.includes(a.type))
        report(['checks', i, field], `'${name}' is a ${a.type} argument; ${c.rule} needs ${d.types.join(' or ')}`);
    }
  }
  const wrong = decl.consistent?.(c);
  if (wrong) report(['checks', i], wrong);
}

function checkAcrossSpecs(specs: LoadedSpec[], problems: SpecProblem[]): void {
  const names = new Set(specs.map((s) => s.name));
  for (const s of specs)
    for (const c of s.checks ?? [])
      if (c.rule === 'gradient_shape' && c.output_of !== undefined && !names.has(c.output_of))
        problems.push({ file: s.file, field: 'checks', message: `gradient_shape: no spec is named ${c.output_of}` });
  const owner = new Map<string, string>();
  for (const s of specs) {
    for (const n of [s.apiName, ...s.apiAliases]) {
      const other = owner.get(n);
      if (other)
        problems.push({ file: s.file, field: 'api', message: `the API name '${n}' is already taken by ${other}` });
      else owner.set(n, s.name);
    }
  }
}

function pointerToPath(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function schemaMessage(e: ErrorObject): string {
  switch (e.keyword) {
    case 'additionalProperties':
      return 'unknown field';
    case 'enum':
      return `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}; got ${JSON.stringify(e.data)}`;
    case 'required':
      return `the field '${e.params.missingProperty}' is missing`;
    case 'pattern':
      return `${JSON.stringify(e.data)} does not match ${e.params.pattern}`;
    case 'discriminator':
      return `unknown ${e.params.tag} ${JSON.stringify(e.params.tagValue)} (known: ${Object.keys(CHECK_RULES).join(', ')})`;
    case 'const':
      return `must be ${JSON.stringify(e.params.allowedValue)}`;
    default:
      return e.message ?? e.keyword;
  }
}

function locate(doc: Document, lines: LineCounter, path: readonly (string | number)[]): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}
