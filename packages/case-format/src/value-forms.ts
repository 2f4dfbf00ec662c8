/** Recognizing the tensor forms of case values (docs/cases.md) by their keys; their fields are checked elsewhere. */

/** `{sparse: {indices, values, dense_shape}, dtype}`; recognized by its `sparse` key, its fields still to check. */
export type SparseForm = Record<string, unknown> & { sparse: unknown };

/** `{dense: NESTED, dtype, shape?}`; recognized by its `dense` key, its fields still to check. */
export type DenseForm = Record<string, unknown> & { dense: unknown };

/**
 * `{csr: {row_pointers, col_indices, values, dense_shape, batch_pointers?}, dtype}`; recognized by its `csr` key, its
 * fields still to check.
 */
export type CsrForm = Record<string, unknown> & { csr: unknown };

/** A YAML mapping or JSON object: neither null nor a list. */
export const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** `{sparse: ..., dtype}`: a SparseTensor. */
export const isSparseForm = (x: unknown): x is SparseForm => isRecord(x) && 'sparse' in x;

/** `{dense: ..., dtype, shape?}`: a dense tensor. */
export const isDenseForm = (x: unknown): x is DenseForm => isRecord(x) && 'dense' in x;

/** `{csr: ..., dtype}`: a CSR matrix (or a batch of them). */
export const isCsrForm = (x: unknown): x is CsrForm => isRecord(x) && 'csr' in x;
