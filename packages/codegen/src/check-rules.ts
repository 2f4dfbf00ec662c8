import type { ArgType, CheckRule, CheckSpec } from './spec-format.js';

/**
 * What one field of a check holds: the name of an argument (or two) of these types, a whole number ≥ 0, an
 * identifier of the check's own (a custom check's function), or text.
 */
export type Field =
  | { kind: 'arg'; types: readonly ArgType[] }
  | { kind: 'arg_pair'; types: readonly ArgType[] }
  | { kind: 'integer' }
  | { kind: 'identifier' }
  | { kind: 'text' };

type Fields<C> = { [F in Exclude<keyof C, 'rule'>]-?: Field & { required: object extends Pick<C, F> ? false : true } };

/** One rule: its fields, what it says in the op reference, and any check its fields must pass together. */
export interface CheckRuleDecl<C> {
  fields: Fields<C>;
  doc(c: C): string;
  /** What is wrong with the fields taken together, if anything. */
  consistent?(c: C): string | undefined;
}

const TENSOR = ['sparse', 'dense', 'sparse_or_dense', 'scalar'] as const;
const SPARSE = ['sparse', 'sparse_or_dense', 'sparse_list', 'sparse_or_sparse_list'] as const;
const arg = <R extends boolean>(types: readonly ArgType[], required: R) => ({ kind: 'arg' as const, types, required });
const argPair = (types: readonly ArgType[]) => ({ kind: 'arg_pair' as const, types, required: true as const });
const integer = { kind: 'integer' as const, required: false as const };
const identifier = { kind: 'identifier' as const, required: true as const };
const optionalIdentifier = { kind: 'identifier' as const, required: false as const };
const text = { kind: 'text' as const, required: true as const };

/**
 * Every check rule, declared once: the spec schema, the validation of each check against the op's arguments and
 * the op reference are built from this table, and the compiler holds it to CheckSpec (a field missing here, or
 * declared required when the type has it optional, does not compile). The runtime implements each rule by name.
 */
export const CHECK_RULES: { [R in CheckRule]: CheckRuleDecl<Extract<CheckSpec, { rule: R }>> } = {
  indices_ordered: {
    fields: { arg: arg(SPARSE, true), when: arg(['bool'], false) },
    doc: (c) =>
      `\`${c.arg}\` indices in canonical row-major order without repeats${c.when ? ` (when \`${c.when}\`)` : ''}: InvalidArgumentError naming the index`,
  },
  same_shape: {
    fields: { args: argPair(TENSOR) },
    doc: (c) => `\`${c.args[0]}\` and \`${c.args[1]}\` have the same dense shape: InvalidArgumentError`,
  },
  broadcast_to_sparse: {
    fields: { dense: arg(['dense', 'scalar'], true), sparse: arg(['sparse'], true) },
    doc: (c) =>
      `\`${c.dense}\` broadcasts to the dense shape of \`${c.sparse}\` (never the other way): InvalidArgumentError`,
  },
  not_both_dense: {
    fields: { args: argPair(TENSOR) },
    doc: (c) => `at least one of \`${c.args[0]}\`, \`${c.args[1]}\` is sparse: TypeError`,
  },
  rank: {
    fields: { arg: arg(TENSOR, true), min: integer, max: integer },
    consistent: (c) => (c.min !== undefined && c.max !== undefined && c.min > c.max ? 'min is above max' : undefined),
    doc: (c) =>
      `\`${c.arg}\` has rank ${c.min !== undefined && c.max !== undefined ? `${c.min}..${c.max}` : c.min !== undefined ? `≥ ${c.min}` : `≤ ${c.max}`}: InvalidArgumentError`,
  },
  index_matrix: {
    fields: {
      indices: arg(['dense', 'scalar'], true),
      values: arg(['dense', 'scalar'], true),
      shape: arg(['shape'], true),
      ordered_when: arg(['bool'], false),
    },
    doc: (c) =>
      `\`${c.indices}\` is a scalar, vector or [N, rank] matrix of indices within \`${c.shape}\`, with one value of \`${c.values}\` per index or a single value${c.ordered_when ? `; in canonical order without repeats when \`${c.ordered_when}\`` : ''}: InvalidArgumentError`,
  },
  axes_in_range: {
    fields: { axes: arg(['axes'], true), of: arg(['sparse', 'dense'], true) },
    doc: (c) => `every axis of \`${c.axes}\` in [-rank, rank) of \`${c.of}\`: InvalidArgumentError`,
  },
  gradient_shape: {
    fields: {
      grad: arg(['dense'], true),
      values_of: arg(['sparse', 'sparse_or_dense', 'csr'], false),
      output_of: optionalIdentifier,
    },
    consistent: (c) =>
      (c.values_of === undefined) === (c.output_of === undefined)
        ? 'give one of values_of (an argument) and output_of (an op id)'
        : undefined,
    doc: (c) =>
      c.values_of !== undefined
        ? `\`${c.grad}\` has one value per stored entry of \`${c.values_of}\` (its dense shape, if dense): InvalidArgumentError`
        : `\`${c.grad}\` has the shape of the output of \`${c.output_of}\` on these arguments (one value per stored entry of a sparse output, counted by the kernel): InvalidArgumentError`,
  },
  custom: {
    fields: { name: identifier, doc: text },
    doc: (c) => c.doc.trim(),
  },
};
