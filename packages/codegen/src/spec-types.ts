/** The shape of one op spec (`specs/<op>.yaml`) once it has passed the schema. */

import type { DTypeName, Example } from '@sparse/case-format';
import type {
  ArgType,
  CheckSpec,
  EntriesTerm,
  OutputOrder,
  OutputType,
  ScratchTerm,
  ShapeRule,
  TensorflowRef,
  WideDims,
} from './spec-format.js';

export { DTYPE_NAMES, type DTypeName } from '@sparse/case-format';
export * from './spec-format.js';

export const KERNEL_FAMILIES = ['cwise', 'merge', 'reduce', 'map', 'structural', 'matmul', 'gradient'] as const;
export type KernelFamily = (typeof KERNEL_FAMILIES)[number];

export interface ArgSpec {
  name: string;
  type: ArgType;
  /** A dtype variable of the spec (`T`) or a concrete dtype; a `dtype` argument binds its variable to its value. */
  dtype?: string;
  /** Absent: required. `zero`: the dtype's zero (0, false, ''). */
  default?: unknown;
  aliases?: string[];
  /** Sparse arguments: `except_last` leaves the last dim's indices unchecked (an op that discards it, as TF does). */
  bounds?: 'all' | 'except_last';
  /** A `string` argument: the strings it takes (any other is an InvalidArgumentError). */
  one_of?: string[];
  /** null stands for the default, as TensorFlow's signature has None there and reads it as the default. */
  none_means_default?: boolean;
  /** A float tensor argument of a dtype variable of its own: its values are cast to this variable's dtype first. */
  cast_to?: string;
  doc: string;
}

export interface OutputSpec {
  name: string;
  type: OutputType;
  dtype: string;
  shape: ShapeRule;
  /** A sparse output: at most this many stored entries (the sum of the terms); family ops derive it. */
  entries?: EntriesTerm[];
  /** A sparse output: the order its entries are in by construction; family ops derive it. */
  order?: OutputOrder;
  doc: string;
}

/** An example: a conformance case (checked by @sparse/case-format) whose op is the spec's. */
export type CaseSpec = Example;

export interface OpSpec {
  name: string;
  summary: string;
  doc: string;
  api?: { name?: string; aliases?: string[] };
  dtypes: Record<string, DTypeName[]>;
  /**
   * A dtype variable's default, as TensorFlow declares one for a type attr (`Tidx: {int32, int64} = DT_INT32`): the
   * dtype a plain value converts to when the one it has by itself is not allowed (an empty list of ids, float32 by
   * itself, becomes int32). A variable without one keeps the dtype the value has, refused if not allowed.
   */
  dtype_defaults?: Record<string, DTypeName>;
  /**
   * The dtype a variable takes where no argument binds it (the optional arguments of that dtype left out): another
   * variable's. `sparse_bincount`'s output dtype W is its weights' dtype, and without weights its values' dtype V, as
   * TensorFlow's Python layer passes empty weights of the values' dtype.
   */
  dtype_fallbacks?: Record<string, string>;
  args: ArgSpec[];
  outputs: OutputSpec[];
  checks?: CheckSpec[];
  kernel: KernelSpec;
  /** How the op's gradient is computed (absent: the op has none; `not_differentiable` says why). */
  gradient?: GradientSpec;
  /** TensorFlow's counterpart of the op, and where TensorFlow registers its gradient. */
  tensorflow?: TensorflowRef;
  /**
   * Why the op has no gradient, in TensorFlow's terms: TensorFlow declares its op `NotDifferentiable` or registers no
   * gradient for it. Never beside `gradient`.
   */
  not_differentiable?: string;
  examples: CaseSpec[];
}

/**
 * Where a gradient op's argument comes from: a forward argument or output by name (`grad` is the upstream
 * gradient), the negation of a bool argument, or one dim of a tensor argument's dense shape.
 */
export type GradientSource = string | { not: string } | { dim: [string, number] };

/**
 * An op's gradient, as PyTorch's derivatives.yaml declares one and TensorFlow registers one. An expression-family
 * op's gradient op (`<op>_grad`) is derived by codegen from its expressions: the spec gives only its `examples`.
 * A hand-written op names the op that computes its gradient (`op`), how that op's arguments are bound where not by
 * name (`args`), and which of its outputs is the gradient of which argument (`outputs`).
 */
export interface GradientSpec {
  op?: string;
  args?: Record<string, GradientSource>;
  outputs?: Record<string, string>;
  examples?: CaseSpec[];
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
  /**
   * Bytes a kernel may hold besides its outputs, per dense output element or sparse output entry (the reduce
   * family's per-group counts): what the byte budget adds to the outputs. Default: the family's.
   */
  workspace?: number;
  /** Working memory besides the outputs that the byte budget counts before the kernel runs. */
  scratch?: ScratchTerm[];
  /** Backends without a kernel of their own for the op, which run the JS kernel there (reported as delegated). */
  dispatch?: Record<string, 'js'>;
  /** How the op takes a dense shape with a dim past 2^53 - 1 (absent: it refuses one). */
  wide_dims?: WideDims;
  /** compared: the axis argument naming the one dim the kernel does arithmetic on, which must stay below 2^53. */
  wide_axis?: string;
}

/** A spec with everything derived that emitters need. */
export interface LoadedSpec extends OpSpec {
  file: string;
  apiName: string;
  apiAliases: string[];
  /** Each sparse output's bound on its stored entries, declared or derived from the family. */
  entries: Record<string, import('./spec-format.js').EntriesTerm[]>;
  /** Each sparse output's order by construction, declared or derived from the family (absent: not known). */
  order: Record<string, OutputOrder>;
  /** For the expression families: the kernel, parsed and checked. */
  compiled?: import('./expr/family.js').CompiledKernel;
  /** For a gradient op codegen derives (`<op>_grad`): its kernel, from the forward op's expressions. */
  derived?: import('./gradient-specs.js').DerivedGradient;
  /** The op's gradient, resolved: the gradient op and where each of its arguments comes from. */
  gradientOf?: import('./spec-format.js').GradientMeta;
}
