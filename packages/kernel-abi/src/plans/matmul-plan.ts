import type { DenseData, SparseData, SparseTensorDenseMatmulArgs } from '../generated/kernel-types.js';

/**
 * sparse_tensor_dense_matmul as one product S·D, whichever operand is sparse: S the sparse operand with its
 * entries read (row, col), swapped when `swapSparse`; D the dense operand as a row-major [k × n] matrix,
 * transposed first when `transposeDense`. Sparse first: op(A)·op(B) = S·D, of shape [m, n]. Dense first: the
 * product is op(B)ᵀ·op(A)ᵀ, of shape [m, n] too, and the result is its transpose.
 */
export interface MatmulPlan {
  sparseFirst: boolean;
  sp: SparseData;
  dn: DenseData;
  swapSparse: boolean;
  transposeDense: boolean;
  m: number;
  n: number;
}

export function matmulPlan(args: SparseTensorDenseMatmulArgs): MatmulPlan {
  const { sp_a: x, b: y, adjoint_a: adjA, adjoint_b: adjB } = args;
  const sparseFirst = x.kind === 'sparse';
  const sp = (sparseFirst ? x : y) as SparseData;
  const dn = (sparseFirst ? y : x) as DenseData;
  const swapSparse = sparseFirst ? adjA : !adjB;
  const transposeDense = sparseFirst ? adjB : !adjA;
  const m = sp.shape[swapSparse ? 1 : 0];
  const n = transposeDense ? dn.shape[0] : dn.shape[1];
  return { sparseFirst, sp, dn, swapSparse, transposeDense, m, n };
}
