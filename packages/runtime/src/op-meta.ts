import type { DType } from './dtype.js';
import type {
  ArgType as ArgKind,
  CheckSpec as CheckMeta,
  EntriesTerm,
  GradientBinding,
  GradientMeta,
  OutputOrder,
  OutputType as OutputKind,
  ScratchTerm,
  ShapeRule,
  TensorflowRef,
  WideDims,
} from './generated/spec-format.js';

// The runtime's view of one op spec (generated into `generated/ops-meta.ts` by @sparse/codegen), in the
// vocabulary codegen validates specs with (generated/spec-format.ts).
export type {
  ArgKind,
  CheckMeta,
  EntriesTerm,
  GradientBinding,
  GradientMeta,
  OutputKind,
  OutputOrder,
  ScratchTerm,
  ShapeRule,
  TensorflowRef,
  WideDims,
};

export interface ArgMeta {
  name: string;
  type: ArgKind;
  /** A dtype variable of the op (`T`) or a concrete dtype; a `dtype` argument binds its variable to its value. */
  dtype?: string;
  /** Absent: required; `'zero'`: the dtype's zero. */
  default?: unknown;
  aliases: string[];
  /** `except_last`: the last dim's indices are not checked against the dense shape (the op discards them). */
  bounds?: 'except_last';
  /** A `string` argument: the strings it takes. */
  oneOf?: string[];
  /** null stands for the default (TensorFlow's None, read as the default). */
  noneMeansDefault?: boolean;
  /** A float tensor argument whose values are cast to this dtype variable's dtype before the kernel. */
  castTo?: string;
}

export interface OutputMeta {
  name: string;
  type: OutputKind;
  dtype: string;
  shape: ShapeRule;
  /** A sparse output: at most the sum of these many stored entries. */
  entries?: EntriesTerm[];
  /** A sparse output: the order its entries are in by construction (absent: not known). */
  order?: OutputOrder;
}

export interface OpMeta {
  name: string;
  apiName: string;
  family: string;
  dtypes: Record<string, DType[]>;
  /**
   * The default of a dtype variable, where the spec declares one (TensorFlow's default of a type attr): a plain value
   * whose own dtype the variable does not allow converts to it if it can (`[]` ids → int32).
   */
  dtypeDefaults: Record<string, DType>;
  /** The variable a dtype variable takes its dtype from where no argument binds it (spec `dtype_fallbacks`). */
  dtypeFallbacks: Record<string, string>;
  args: ArgMeta[];
  outputs: OutputMeta[];
  checks: CheckMeta[];
  /** Bytes the kernel may hold besides its outputs, per dense output element or sparse output entry. */
  workspace: number;
  /** Working memory besides the outputs (spec `kernel.scratch`), counted before the kernel runs (absent: none). */
  scratch?: ScratchTerm[];
  /** How the op takes a sparse tensor with a dim past 2^53 - 1 (absent: it refuses one). */
  wideDims?: WideDims;
  /** The axis argument naming the one dim a `compared` kernel computes with, which must stay below 2^53. */
  wideAxis?: string;
  /** The op's gradient (Runtime.vjp): the gradient op, where its arguments come from, whose gradient each output is. */
  gradient?: GradientMeta;
  /** TensorFlow's counterpart of the op, and where TensorFlow registers its gradient (absent there: none). */
  tensorflow?: TensorflowRef;
  /** Why the op has no gradient, in TensorFlow's terms (it declares the op NotDifferentiable or registers none). */
  notDifferentiable?: string;
}
