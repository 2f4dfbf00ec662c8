/** The shape of one op spec (`specs/<op>.yaml`) once it has passed the schema. */

import type { DTypeName, Example } from '@sparse/case-format';

export { DTYPE_NAMES, type DTypeName } from '@sparse/case-format';

/** How a runtime argument is passed and converted. */
export const ARG_TYPES = {
  sparse: 'a SparseTensor',
  dense: 'a dense tensor (a Tensor, or nested arrays)',
  scalar: 'a rank-0 tensor or a plain value',
  sparse_or_dense: 'a SparseTensor or a dense tensor',
  sparse_list: 'a list of SparseTensors',
  sparse_or_sparse_list: 'a SparseTensor or a list of SparseTensors',
  int: 'a whole number',
  bool: 'a boolean',
  int_list: 'a list of whole numbers',
  int_or_int_list: 'a whole number or a list of whole numbers',
  shape: 'a dense shape: a list of non-negative whole numbers',
  axes: 'null (every axis), an axis, or a list of axes',
} as const;
export type ArgType = keyof typeof ARG_TYPES;

export const OUTPUT_TYPES = ['sparse', 'dense', 'sparse_list', 'sparse_or_dense'] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];

export const KERNEL_FAMILIES = ['cwise', 'merge', 'reduce', 'map', 'structural', 'matmul'] as const;
export type KernelFamily = (typeof KERNEL_FAMILIES)[number];

export interface ArgSpec {
  name: string;
  type: ArgType;
  /** A dtype variable of the spec (`T`) or a concrete dtype. */
  dtype?: string;
  /** Absent: required. `zero`: the dtype's zero (0, false, ''). */
  default?: unknown;
  aliases?: string[];
  /** Sparse arguments: `except_last` leaves the last dim's indices unchecked (an op that discards it, as TF does). */
  bounds?: 'all' | 'except_last';
  doc: string;
}

/** How an output's dense shape follows from the arguments. */
export type ShapeRule =
  | { like: string }
  | { value: string }
  | { reduce: { input: string; axes: string; keepdims: string } }
  | { replace_last: { input: string; with: string } }
  | { matmul: { a: string; b: string; adjoint_a: string; adjoint_b: string } }
  | { computed: string };

export interface OutputSpec {
  name: string;
  type: OutputType;
  dtype: string;
  shape: ShapeRule;
  doc: string;
}

/** A check the runtime makes before any kernel runs; each rule is one function in @sparse/runtime. */
export type CheckSpec =
  | { rule: 'indices_ordered'; arg: string; when?: string }
  | { rule: 'same_shape'; args: [string, string] }
  | { rule: 'broadcast_to_sparse'; dense: string; sparse: string }
  | { rule: 'not_both_dense'; args: [string, string] }
  | { rule: 'rank'; arg: string; min?: number; max?: number }
  | { rule: 'index_matrix'; indices: string; values: string; shape: string; ordered_when?: string }
  | { rule: 'axes_in_range'; axes: string; of: string }
  | { rule: 'custom'; name: string; doc: string };

export type CheckRule = CheckSpec['rule'];
export const CHECK_RULES: readonly CheckRule[] = [
  'indices_ordered',
  'same_shape',
  'broadcast_to_sparse',
  'not_both_dense',
  'rank',
  'index_matrix',
  'axes_in_range',
  'custom',
];

/** An example: a conformance case (checked by @sparse/case-format) whose op is the spec's. */
export type CaseSpec = Example;

export interface OpSpec {
  name: string;
  summary: string;
  doc: string;
  api?: { name?: string; aliases?: string[] };
  dtypes: Record<string, DTypeName[]>;
  args: ArgSpec[];
  outputs: OutputSpec[];
  checks?: CheckSpec[];
  kernel: KernelSpec;
  examples: CaseSpec[];
}

/** The kernel of an op: a family, and for the expression families the expressions that make the kernel. */
export interface KernelSpec {
  family: KernelFamily;
  /** cwise (over a, b), merge (over a, b where both hold an entry), map (over x). */
  expr?: string;
  /** merge: which indices the output holds. */
  join?: 'union' | 'intersection';
  /** merge: the value where only a (only b) holds an entry; default: expr with the missing side 0. */
  only_a?: string;
  only_b?: string;
  /** merge: a condition over out (and a, b) deciding whether an entry where both hold one is kept. */
  keep?: string;
  /** reduce: the start value, the step over acc and x, and the last step over acc and count. */
  init?: string;
  combine?: string;
  finalize?: string;
  /** reduce: whether the implicit zeros of a group take part (a group with any takes one 0 more). */
  implicit_zeros?: 'ignore' | 'include';
  /** Backends without a kernel of their own for the op, which run the JS kernel there (reported as delegated). */
  dispatch?: Record<string, 'js'>;
}

/** A spec with everything derived that emitters need. */
export interface LoadedSpec extends OpSpec {
  file: string;
  apiName: string;
  apiAliases: string[];
  /** For the expression families: the kernel, parsed and checked. */
  compiled?: import('./expr/family.js').CompiledKernel;
}
