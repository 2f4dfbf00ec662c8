import type { ArgType, ShapeRule } from './spec-format.js';
import type { ArgSpec } from './spec-types.js';

/** What a shape rule's value, or one field of it, holds: an argument of these types, a list of them, a number, text. */
export type ShapePart =
  | { kind: 'arg'; types: readonly ArgType[]; noun: string; optional?: true }
  | { kind: 'args'; types: readonly ArgType[]; noun: string; empty?: true }
  | { kind: 'integer'; minimum: number }
  | { kind: 'text' };

type RuleName = ShapeRule extends infer U ? (U extends unknown ? keyof U : never) : never;
type RuleValue<K extends RuleName> = Extract<ShapeRule, Record<K, unknown>>[K];

/** One rule: what its value holds (one part, or named parts), its text in ops.md, a check of its parts together. */
export interface ShapeRuleDecl<V> {
  value: ShapePart | { [F in keyof V]-?: ShapePart };
  doc(v: V): string;
  consistent?(
    v: V,
    argOf: (name: string) => ArgSpec | undefined,
  ): { path: (string | number)[]; message: string } | undefined;
}

const arg = (types: readonly ArgType[], noun: string) => ({ kind: 'arg' as const, types, noun });
const optional = (types: readonly ArgType[], noun: string) => ({ ...arg(types, noun), optional: true as const });
const TENSOR = arg(['sparse', 'dense', 'sparse_or_dense', 'csr'], 'tensor');
const SPARSE_OR_DENSE = arg(['sparse', 'dense'], 'tensor');
const SPARSE = arg(['sparse'], 'sparse');
const DENSE = arg(['dense'], 'dense');
const BOOL = arg(['bool'], 'bool');
const INT = arg(['int'], 'int');

/**
 * Every shape rule of an output, declared once: the spec schema, the validation of each rule against the op's
 * arguments and its text in ops.md are built from this table, and the compiler holds it to ShapeRule (a rule or a
 * field missing here does not compile). The runtime computes each rule by name (runtime/src/outputs.ts).
 */
export const SHAPE_RULES: { [K in RuleName]: ShapeRuleDecl<RuleValue<K>> } = {
  like: { value: TENSOR, doc: (v) => `dense shape of \`${v}\`` },
  value: { value: arg(['shape', 'int_list'], 'shape'), doc: (v) => `the value of \`${v}\`` },
  reduce: {
    value: { input: SPARSE, axes: arg(['axes'], 'axes'), keepdims: BOOL },
    doc: (v) => `\`${v.input}\` reduced over \`${v.axes}\` (kept as 1 with \`${v.keepdims}\`)`,
  },
  replace_first: {
    value: { input: arg(['dense', 'sparse'], 'tensor'), with: INT },
    doc: (v) => `dense shape of \`${v.input}\`, the first dim replaced by \`${v.with}\``,
  },
  replace_last: {
    value: {
      input: arg(['sparse', 'dense', 'sparse_or_sparse_list'], 'tensor'),
      with: arg(['int', 'int_list', 'int_or_int_list'], 'int'),
    },
    doc: (v) => `dense shape of \`${v.input}\`, the last dim replaced by \`${v.with}\``,
  },
  matmul: {
    value: {
      a: TENSOR,
      b: TENSOR,
      adjoint_a: BOOL,
      adjoint_b: BOOL,
      transpose_a: optional(['bool'], 'bool'),
      transpose_b: optional(['bool'], 'bool'),
      transpose_output: optional(['bool'], 'bool'),
    },
    doc: matmulShapeText,
  },
  matrix_transpose: {
    value: arg(['csr'], 'csr'),
    doc: (v) => `dense shape of \`${v}\`, its last two dims swapped`,
  },
  lookup: {
    value: { ids: SPARSE_OR_DENSE, params: DENSE },
    doc: (v) => `dense shape of \`${v.ids}\` without its last dim, then the dims of \`${v.params}\` after its first`,
  },
  rows_with_ids: {
    value: { ids: SPARSE, params: DENSE },
    doc: (v) =>
      `[first coordinate of the last entry of \`${v.ids}\` + 1 (0 without entries), ...dims of \`${v.params}\` after its first]`,
  },
  leading_dims: {
    value: { input: SPARSE_OR_DENSE, count: { kind: 'integer', minimum: 1 } },
    doc: (v) => `the first ${v.count} dims of the dense shape of \`${v.input}\``,
  },
  gradient_of: {
    value: arg(['sparse', 'dense', 'sparse_or_dense', 'sparse_or_null', 'csr'], 'tensor'),
    doc: (v) => `[stored entries of \`${v}\`] if sparse or CSR, its dense shape if dense`,
  },
  dims: {
    // No dims: a rank-0 output (the gradient of a scalar argument, sparse_to_dense_grad's default_value_grad).
    value: { kind: 'args', types: ['int'], noun: 'int', empty: true },
    doc: (v) => (v.length ? `[${v.map((d) => `\`${d}\``).join(', ')}] (a null one: the dim before it)` : '[] (rank 0)'),
    consistent: (v, argOf) =>
      v.length > 0 && argOf(v[0])?.default === null
        ? { path: [0], message: `the first dim has no dim before it to stand for a null '${v[0]}'` }
        : undefined,
  },
  segments: {
    value: { data: DENSE, segment_ids: DENSE, num_segments: INT },
    doc: (v) =>
      `[\`${v.num_segments}\`, or the last of \`${v.segment_ids}\` + 1, ...dense shape of \`${v.data}\` after its first dim]`,
  },
  computed: { value: { kind: 'text' }, doc: (v) => v },
};

const isPart = (v: unknown): v is ShapePart => typeof (v as ShapePart).kind === 'string';

/** The rule of a shape: its name and value. */
export function ruleOf(shape: ShapeRule): [RuleName, unknown] {
  const [name, value] = Object.entries(shape)[0] as [RuleName, unknown];
  return [name, value];
}

/** The rule's text in ops.md. */
export function shapeRuleText(shape: ShapeRule): string {
  const [name, value] = ruleOf(shape);
  return (SHAPE_RULES[name] as ShapeRuleDecl<unknown>).doc(value);
}

/** Where each part of a rule names an argument that is not of its types, or the parts disagree: path → message. */
export function shapeRuleProblems(
  shape: ShapeRule,
  argOf: (name: string) => ArgSpec | undefined,
): { path: (string | number)[]; message: string }[] {
  const [name, value] = ruleOf(shape);
  const decl = SHAPE_RULES[name] as ShapeRuleDecl<unknown>;
  const problems: { path: (string | number)[]; message: string }[] = [];
  const check = (part: ShapePart, v: unknown, path: (string | number)[]) => {
    if (part.kind === 'args') (v as string[]).forEach((n, j) => check({ ...part, kind: 'arg' }, n, [...path, j]));
    if (part.kind !== 'arg' || (part.optional && v === undefined)) return;
    if (!part.types.includes(argOf(v as string)?.type as ArgType))
      problems.push({ path, message: `'${v as string}' is not ${article(part.noun)} ${part.noun} argument` });
  };
  if (isPart(decl.value)) check(decl.value, value, [name]);
  else
    for (const [f, part] of Object.entries(decl.value as Record<string, ShapePart>))
      check(part, (value as Record<string, unknown>)[f], [name, f]);
  const together = decl.consistent?.(value, argOf);
  if (together) problems.push({ path: [name, ...together.path], message: together.message });
  return problems;
}

const article = (noun: string) => (/^[aeiou]/.test(noun) ? 'an' : 'a');

/** The JSON Schema of an output's `shape`: exactly one rule, each value as its declaration says. */
export function shapeRuleSchema(identifier: object) {
  const schemaOf = (part: ShapePart): object =>
    part.kind === 'args'
      ? { type: 'array', minItems: part.empty ? 0 : 1, items: identifier }
      : part.kind === 'integer'
        ? { type: 'integer', minimum: part.minimum }
        : part.kind === 'text'
          ? { type: 'string', minLength: 1 }
          : identifier;
  const properties = Object.fromEntries(
    Object.entries(SHAPE_RULES).map(([name, decl]) => {
      const value = decl.value as ShapePart | Record<string, ShapePart>;
      if (isPart(value)) return [name, schemaOf(value)];
      const fields = Object.entries(value);
      return [
        name,
        {
          type: 'object',
          additionalProperties: false,
          required: fields.filter(([, p]) => !(p.kind === 'arg' && p.optional)).map(([f]) => f),
          properties: Object.fromEntries(fields.map(([f, p]) => [f, schemaOf(p)])),
        },
      ];
    }),
  );
  return {
    type: 'object',
    minProperties: 1,
    maxProperties: 1,
    additionalProperties: false,
    properties: properties as Record<RuleName, object>,
  };
}

/** The matmul rule in words: rows of op(a) and columns of op(b) after the flags (after a's batch dims, if any). */
function matmulShapeText(m: RuleValue<'matmul'>): string {
  const plain = `[rows of \`${m.a}\`, columns of \`${m.b}\`] after \`${m.adjoint_a}\` / \`${m.adjoint_b}\``;
  if (!m.transpose_a && !m.transpose_b && !m.transpose_output) return plain;
  const either = (x: string, y?: string) => (y ? `\`${x}\` or \`${y}\`` : `\`${x}\``);
  const out = m.transpose_output ? `, the two swapped by \`${m.transpose_output}\`` : '';
  return `[batch dims of \`${m.a}\`, rows of \`${m.a}\`, columns of \`${m.b}\`], \`${m.a}\` transposed by ${either(m.adjoint_a, m.transpose_a)}, \`${m.b}\` by ${either(m.adjoint_b, m.transpose_b)}${out}`;
}
