import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { mdHeader } from './header.js';
import { camelCase } from './naming.js';
import { callToTs, expectationText } from './render-example.js';
import { CHECK_RULES, type CheckRuleDecl } from './check-rules.js';
import { shapeRuleText } from './shape-rules.js';
import { BACKEND_TARGETS, dispatchIn, type Dispatch } from './backend-targets.js';
import { WIDE_DIMS } from './spec-format.js';
import {
  ARG_TYPES,
  type ArgSpec,
  type CaseSpec,
  type CheckSpec,
  type LoadedSpec,
  type ShapeRule,
} from './spec-types.js';

const hb = Handlebars.create();

hb.registerHelper('signature', (s: LoadedSpec) => {
  const req = s.args.filter((a) => a.default === undefined).map((a) => camelCase(a.name));
  const opt = s.args.filter((a) => a.default !== undefined).map((a) => camelCase(a.name));
  return [...req, ...(opt.length ? [`{ ${opt.join(', ')} }?`] : [])].join(', ');
});
hb.registerHelper('argKind', (a: ArgSpec) =>
  a.one_of ? `one of ${a.one_of.map((v) => `\`'${v}'\``).join(', ')}` : ARG_TYPES[a.type],
);
hb.registerHelper('dtypeText', (s: LoadedSpec, d: string | undefined) =>
  d === undefined
    ? ''
    : s.dtypes[d]
      ? `${d} ∈ {${s.dtypes[d].join(', ')}}` +
        (s.dtype_defaults?.[d] ? `, preferred ${s.dtype_defaults[d]}` : '') +
        (s.dtype_fallbacks?.[d] ? `; ${s.dtype_fallbacks[d]} where no argument gives it` : '')
      : d,
);
hb.registerHelper('defaultText', (a: ArgSpec) =>
  a.default === undefined
    ? 'required'
    : a.default === 'zero'
      ? 'zero of the dtype'
      : `\`${JSON.stringify(a.default)}\``,
);
const oneLine = (t: string) =>
  t
    .trim()
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|');
hb.registerHelper('oneLine', oneLine);
hb.registerHelper('shapeText', (r: ShapeRule) => shapeRuleText(r));
/** The op's gradient in this library: the gradient op with what it gives, or why there is none. */
const gradientText = (s: LoadedSpec, forwardOf: Map<string, string>) => {
  const g = s.gradientOf;
  if (!g) return noGradientText(s, forwardOf);
  const whose = Object.entries(g.outputs)
    .map(([arg, out]) => `\`${arg}\` (its \`${out}\`)`)
    .join(', ');
  return `[\`${g.op}\`](#${g.op})${s.compiled ? ', derived from the expressions,' : ''} gives the gradient of ${whose}; \`rt.vjp('${s.name}', args, grad)\` runs it`;
};
const noGradientText = (s: LoadedSpec, forwardOf: Map<string, string>) => {
  const forward = forwardOf.get(s.name);
  if (forward) return `none: it is the gradient op of [\`${forward}\`](#${forward})`;
  if (s.not_differentiable) return `none: TensorFlow declares it not differentiable: ${oneLine(s.not_differentiable)}`;
  return '**none yet**, although TensorFlow differentiates it';
};
/**
 * The op's TensorFlow counterpart, its name as code and what follows as text (`SparseAdd (SparseTensorDenseAdd with
 * a dense operand)`), and where TensorFlow registers its gradient.
 */
const tensorflowOp = (s: LoadedSpec) => (s.tensorflow ? s.tensorflow.op.replace(/^(\S+)/, '`$1`') : '—');
const tensorflowGradient = (s: LoadedSpec) =>
  s.tensorflow?.gradient ? oneLine(s.tensorflow.gradient) : s.tensorflow ? 'none' : '—';
const tensorflowText = (s: LoadedSpec) =>
  s.tensorflow ? `${tensorflowOp(s)}; its gradient: ${tensorflowGradient(s)}` : 'no TensorFlow op of its own';
/** The gradients table's cell for our side: the gradient op, or why there is none, in short. */
const oursCell = (s: LoadedSpec, forwardOf: Map<string, string>) => {
  const forward = forwardOf.get(s.name);
  if (s.gradientOf) return `[\`${s.gradientOf.op}\`](#${s.gradientOf.op})`;
  if (forward) return `(the gradient of [\`${forward}\`](#${forward}))`;
  if (s.not_differentiable) return `not differentiable: ${oneLine(s.not_differentiable)}`;
  return '**none yet**';
};

hb.registerHelper('checkText', (c: CheckSpec) => (CHECK_RULES[c.rule] as CheckRuleDecl<CheckSpec>).doc(c));
const DISPATCH_TEXT: Record<Dispatch, string> = {
  generated: 'generated from the expressions',
  kernel: 'hand-written kernel',
  js: 'runs the JS kernel (reported as delegated)',
};
/** How the op runs on each backend, its kernel files as they are under `root`. */
const backendsText = (root: string, s: LoadedSpec) =>
  [
    `js: ${s.compiled || s.derived ? DISPATCH_TEXT.generated : DISPATCH_TEXT.kernel}`,
    ...BACKEND_TARGETS.map((b) => `${b.name}: ${DISPATCH_TEXT[dispatchIn(root, s, b)]}`),
  ].join('; ');
hb.registerHelper('wideText', (s: LoadedSpec) => {
  const way = s.kernel.wide_dims;
  if (!way) return 'not taken (an InvalidArgumentError)';
  const axis = s.kernel.wide_axis ? `, except along \`${s.kernel.wide_axis}\` (an UnimplementedError)` : '';
  return `taken exactly: ${WIDE_DIMS[way]}${axis}`;
});
hb.registerHelper('call', (s: LoadedSpec, ex: CaseSpec) => callToTs(s, ex));
hb.registerHelper('expectText', (ex: CaseSpec) =>
  expectationText(ex)
    .split('\n')
    .map((l) => `→ \`${l.replace(/`/g, "'")}\``)
    .join('<br>'),
);

/** `docs/ops.md`: the op reference, from the specs through the handlebars template (and the kernel files under `root`). */
export function emitDocs(specs: LoadedSpec[], templatePath: string, root: string): string {
  hb.registerHelper('backendsText', (s: LoadedSpec) => backendsText(root, s));
  // Each gradient op, by the op whose gradient it is.
  const forwardOf = new Map(specs.flatMap((s) => (s.gradientOf ? [[s.gradientOf.op, s.name] as const] : [])));
  hb.registerHelper('gradientText', (s: LoadedSpec) => gradientText(s, forwardOf));
  hb.registerHelper('oursCell', (s: LoadedSpec) => oursCell(s, forwardOf));
  hb.registerHelper('tensorflowOp', tensorflowOp);
  hb.registerHelper('tensorflowGradient', tensorflowGradient);
  hb.registerHelper('tensorflowText', tensorflowText);
  const template = hb.compile(readFileSync(templatePath, 'utf8'), { noEscape: true });
  return template({ header: mdHeader.trim(), specs });
}
