// The vocabulary of a spec that the runtime shares with codegen: argument and output types, shape rules and
// checks. The generator copies this file into @sparse/runtime (src/generated/spec-format.ts), so that the
// runtime's op metadata is typed by the very declarations codegen validates specs with.

/** How a runtime argument is passed and converted. */
export type ArgType =
  | 'sparse'
  | 'sparse_or_null'
  | 'dense'
  | 'scalar'
  | 'sparse_or_dense'
  | 'sparse_list'
  | 'sparse_or_sparse_list'
  | 'sparse_or_dense_list'
  | 'int'
  | 'bool'
  | 'int_list'
  | 'int_or_int_list'
  | 'shape'
  | 'axes'
  | 'string'
  | 'dtype'
  | 'csr';

/** Each argument type, as the op reference describes it. */
export const ARG_TYPES: Record<ArgType, string> = {
  sparse: 'a SparseTensor',
  sparse_or_null: 'a SparseTensor, or null (None in TensorFlow)',
  dense: 'a dense tensor (a Tensor, or nested arrays)',
  scalar: 'a rank-0 tensor or a plain value',
  sparse_or_dense: 'a SparseTensor or a dense tensor',
  sparse_list: 'a list of SparseTensors',
  sparse_or_sparse_list: 'a SparseTensor or a list of SparseTensors',
  sparse_or_dense_list: 'a list of SparseTensors and dense tensors, each of any dtype the list allows',
  int: 'a whole number',
  bool: 'a boolean',
  int_list: 'a list of whole numbers',
  int_or_int_list: 'a whole number or a list of whole numbers',
  shape: 'a dense shape: a list of non-negative whole numbers',
  axes: 'null (every axis), an axis, or a list of axes',
  string: 'a string (one of those the argument lists, where it lists them)',
  dtype: "a dtype name ('float32', 'int64', ...): the dtype of the argument's dtype variable",
  csr: 'a CsrMatrix: a CSR matrix (rank 2) or a batch of them (rank 3)',
};

/** What an output is. */
export type OutputType = 'sparse' | 'dense' | 'sparse_list' | 'sparse_or_dense' | 'csr';

// Every output type once: the compiler refuses a missing or unknown one.
const OUTPUT_TYPE_SET: Record<OutputType, true> = {
  sparse: true,
  dense: true,
  sparse_list: true,
  sparse_or_dense: true,
  csr: true,
};
export const OUTPUT_TYPES = Object.keys(OUTPUT_TYPE_SET) as OutputType[];

/** How an output's dense shape follows from the arguments. */
export type ShapeRule =
  | { like: string }
  | { value: string }
  | { reduce: { input: string; axes: string; keepdims: string } }
  | { replace_last: { input: string; with: string } }
  | { replace_first: { input: string; with: string } }
  | {
      matmul: {
        a: string;
        b: string;
        adjoint_a: string;
        adjoint_b: string;
        transpose_a?: string;
        transpose_b?: string;
        transpose_output?: string;
      };
    }
  | { matrix_transpose: string }
  | { lookup: { ids: string; params: string } }
  | { rows_with_ids: { ids: string; params: string } }
  | { leading_dims: { input: string; count: number } }
  | { gradient_of: string }
  | { dims: string[] }
  | { segments: { data: string; segment_ids: string; num_segments: string } }
  | { computed: string };

/**
 * One term of a bound on the stored entries of a sparse output, known before its kernel runs: the stored entries
 * of a sparse argument (of every tensor, for a list), the element count of a dense argument, one dim of an
 * argument's dense shape, the smallest of some whole-number arguments (those given: a null one is left out), or the
 * crosses of a list of batch-first inputs (sparse_cross: over the rows, the product of each input's entries in the
 * row, which the runtime counts from the inputs in linear time); or, for a product of two CSR matrices, the products
 * Gustavson's algorithm forms in each row of op(a) · op(b), each row's count capped at its columns
 * (`transpose_a`/`transpose_b` list the bool arguments any of which transposes an operand). The bound is the sum of
 * its terms; the runtime's byte budget reads it.
 */
export type EntriesTerm =
  | { nnz: string }
  | { size: string }
  | { dim: [string, number] }
  | { min: string[] }
  | { cross: string }
  | { products: { a: string; b: string; transpose_a: string[]; transpose_b: string[] } };

/**
 * Working memory a kernel holds besides its outputs (a transposed copy, a dense accumulator, a per-row count),
 * which the byte budget counts before the kernel runs: `bytes` for each unit of one measure of an argument, the
 * stored entries of a sparse or CSR argument (`nnz`), the element count of a dense one (`size`), the product of
 * some dims of its dense shape (`dims`: axes from the end where negative; an axis the rank lacks counts 1, so
 * `[-3, -1]` is a CSR batch times its columns), or the smallest of some whole-number arguments (`min`). Counted
 * only when one of the bool arguments of `when` is set, and none of `unless`. Each is read in O(1) (or once per
 * tensor of a list), so the budget refuses before anything of the call's size is touched.
 */
export type ScratchTerm = ({ nnz: string } | { size: string } | { dims: [string, number[]] } | { min: string[] }) & {
  bytes: number;
  when?: string[];
  unless?: string[];
};

/**
 * The order a sparse output's entries are in by construction: canonical row-major order, or the order of a sparse
 * argument's entries (kept when the kernel keeps them in input order). The runtime then knows an output is
 * canonical without checking it again.
 */
export type OutputOrder = 'canonical' | { like: string };

/**
 * A check the runtime makes before any kernel runs; each rule is one function in @sparse/runtime, and one entry
 * of codegen's check-rules.ts (its fields, what it says in the docs).
 */
export type CheckSpec =
  | { rule: 'indices_ordered'; arg: string; when?: string }
  | { rule: 'same_shape'; args: [string, string] }
  | { rule: 'broadcast_to_sparse'; dense: string; sparse: string }
  | { rule: 'not_both_dense'; args: [string, string] }
  | { rule: 'rank'; arg: string; min?: number; max?: number }
  | { rule: 'index_matrix'; indices: string; values: string; shape: string; ordered_when?: string }
  | { rule: 'axes_in_range'; axes: string; of: string }
  | { rule: 'gradient_shape'; grad: string; values_of?: string; output_of?: string }
  | { rule: 'custom'; name: string; doc: string };

export type CheckRule = CheckSpec['rule'];

/**
 * How an op takes a sparse tensor whose dense shape has a dim past 2^53 - 1 (TensorFlow's dims reach 2^63 - 1; a JS
 * number is exact to 2^53 - 1). An op without it refuses such a tensor.
 */
export type WideDims = 'compared' | 'exact';

/** Each way, as the op reference describes it. */
export const WIDE_DIMS: Record<WideDims, string> = {
  compared:
    'its kernel only compares indices and dims, so it runs on order-preserving stand-ins of the dims past 2^53 - 1',
  exact: 'a BigInt kernel runs it exactly',
};

/**
 * Where an argument of a gradient op comes from, in a vector-Jacobian product: a forward argument, a forward
 * output, the upstream gradient, the negation of a bool argument, or one dim of a tensor argument's dense shape.
 */
export type GradientBinding =
  { arg: string } | { output: string } | { upstream: true } | { not: string } | { dim: [string, number] };

/**
 * An op's TensorFlow counterpart: its op (a raw op, `SparseToDense`, or the Python function that composes the op of
 * others, `tf.sparse.from_dense`) and where TensorFlow registers its gradient (`sparse_grad.py`; for a composite,
 * whose gradients it is made of); absent, TensorFlow registers none.
 */
export interface TensorflowRef {
  op: string;
  gradient?: string;
}

/** An op's gradient as the runtime runs it: the gradient op, its arguments, and the gradient of each argument. */
export interface GradientMeta {
  op: string;
  args: Record<string, GradientBinding>;
  /** Forward argument name → the gradient op's output that is its gradient. */
  outputs: Record<string, string>;
}
