import type { DType } from './dtype.js';

/** The runtime's view of one op spec (generated into `generated/ops-meta.ts` by @sparse/codegen). */
export type ArgKind =
  | 'sparse'
  | 'dense'
  | 'scalar'
  | 'sparse_or_dense'
  | 'sparse_list'
  | 'sparse_or_sparse_list'
  | 'int'
  | 'bool'
  | 'int_list'
  | 'int_or_int_list'
  | 'shape'
  | 'axes';
export type OutputKind = 'sparse' | 'dense' | 'sparse_list' | 'sparse_or_dense';

export interface ArgMeta {
  name: string;
  type: ArgKind;
  /** A dtype variable of the op (`T`) or a concrete dtype. */
  dtype?: string;
  /** Absent: required; `'zero'`: the dtype's zero. */
  default?: unknown;
  aliases: string[];
  /** `except_last`: the last dim's indices are not checked against the dense shape (the op discards them). */
  bounds?: 'except_last';
}

export type ShapeRule =
  | { like: string }
  | { value: string }
  | { reduce: { input: string; axes: string; keepdims: string } }
  | { replace_last: { input: string; with: string } }
  | { matmul: { a: string; b: string; adjoint_a: string; adjoint_b: string } }
  | { computed: string };

export interface OutputMeta {
  name: string;
  type: OutputKind;
  dtype: string;
  shape: ShapeRule;
}

export type CheckMeta =
  | { rule: 'indices_ordered'; arg: string; when?: string }
  | { rule: 'same_shape'; args: string[] }
  | { rule: 'broadcast_to_sparse'; dense: string; sparse: string }
  | { rule: 'not_both_dense'; args: string[] }
  | { rule: 'rank'; arg: string; min?: number; max?: number }
  | { rule: 'index_matrix'; indices: string; values: string; shape: string; ordered_when?: string }
  | { rule: 'axes_in_range'; axes: string; of: string }
  | { rule: 'custom'; name: string; doc: string };

export interface OpMeta {
  name: string;
  apiName: string;
  family: string;
  dtypes: Record<string, DType[]>;
  args: ArgMeta[];
  outputs: OutputMeta[];
  checks: CheckMeta[];
}
