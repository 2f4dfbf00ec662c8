import type { DenseData, SparseData } from '@sparse/kernel-abi';

/**
 * sparse_tensor_dense_matmul: exactly one of `sp_a` and `b` is a SparseTensor. Two dense operands are refused
 * by the `not_both_dense` rule; this refuses two sparse ones (TensorFlow has no sparse × sparse matmul here).
 */
export function sparseDenseMatmulOneSparse(op: string, args: Record<string, unknown>): void {
  const a = args.sp_a as SparseData | DenseData;
  const b = args.b as SparseData | DenseData;
  if (a.kind === 'sparse' && b.kind === 'sparse') {
    throw new TypeError(
      `${op}: exactly one of sp_a and b must be a SparseTensor; both are sparse (densify one of them, e.g. with sparse.toDense)`,
    );
  }
}
