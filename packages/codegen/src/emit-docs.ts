import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { mdHeader } from './header.js';
import { camelCase } from './naming.js';
import { callToTs, expectationText } from './render-example.js';
import { CHECK_RULES, type CheckRuleDecl } from './check-rules.js';
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
hb.registerHelper('oneLine', (t: string) =>
  t
    .trim()
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|'),
);
hb.registerHelper('shapeText', (r: ShapeRule) =>
  'like' in r
    ? `dense shape of \`${r.like}\``
    : 'value' in r
      ? `the value of \`${r.value}\``
      : 'reduce' in r
        ? `\`${r.reduce.input}\` reduced over \`${r.reduce.axes}\` (kept as 1 with \`${r.reduce.keepdims}\`)`
        : 'replace_first' in r
          ? `dense shape of \`${r.replace_first.input}\`, the first dim replaced by \`${r.replace_first.with}\``
          : 'replace_last' in r
            ? `dense shape of \`${r.replace_last.input}\`, the last dim replaced by \`${r.replace_last.with}\``
            : 'matmul' in r
              ? matmulShapeText(r.matmul)
              : 'matrix_transpose' in r
                ? `dense shape of \`${r.matrix_transpose}\`, its last two dims swapped`
                : 'lookup' in r
                  ? `dense shape of \`${r.lookup.ids}\` without its last dim, then the dims of \`${r.lookup.params}\` after its first`
                  : 'rows_with_ids' in r
                    ? `[first coordinate of the last entry of \`${r.rows_with_ids.ids}\` + 1 (0 without entries), ...dims of \`${r.rows_with_ids.params}\` after its first]`
                    : 'leading_dims' in r
                      ? `the first ${r.leading_dims.count} dims of the dense shape of \`${r.leading_dims.input}\``
                      : 'dims' in r
                        ? `[${r.dims.map((d) => `\`${d}\``).join(', ')}] (a null one: the dim before it)`
                        : 'segments' in r
                          ? `[\`${r.segments.num_segments}\`, or the last of \`${r.segments.segment_ids}\` + 1, ...dense shape of \`${r.segments.data}\` after its first dim]`
                          : 'gradient_of' in r
                            ? `[stored entries of \`${r.gradient_of}\`] if sparse, its dense shape if dense`
                            : r.computed,
);
hb.registerHelper('gradientText', (s: LoadedSpec) => {
  const g = s.gradientOf;
  if (!g) return '';
  const whose = Object.entries(g.outputs)
    .map(([arg, out]) => `\`${arg}\` (its \`${out}\`)`)
    .join(', ');
  return `[\`${g.op}\`](#${g.op})${s.compiled ? ', derived from the expressions,' : ''} gives the gradient of ${whose}; \`rt.vjp('${s.name}', args, grad)\` runs it`;
});
/** The matmul rule in words: rows of op(a) and columns of op(b) after the flags (after a's batch dims, if any). */
function matmulShapeText(m: Extract<ShapeRule, { matmul: unknown }>['matmul']): string {
  const plain = `[rows of \`${m.a}\`, columns of \`${m.b}\`] after \`${m.adjoint_a}\` / \`${m.adjoint_b}\``;
  if (!m.transpose_a && !m.transpose_b && !m.transpose_output) return plain;
  const either = (x: string, y?: string) => (y ? `\`${x}\` or \`${y}\`` : `\`${x}\``);
  const out = m.transpose_output ? `, the two swapped by \`${m.transpose_output}\`` : '';
  return `[batch dims of \`${m.a}\`, rows of \`${m.a}\`, columns of \`${m.b}\`], \`${m.a}\` transposed by ${either(m.adjoint_a, m.transpose_a)}, \`${m.b}\` by ${either(m.adjoint_b, m.transpose_b)}${out}`;
}

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
  const template = hb.compile(readFileSync(templatePath, 'utf8'), { noEscape: true });
  return template({ header: mdHeader.trim(), specs });
}
