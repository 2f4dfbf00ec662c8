import type { CsrData } from '@sparse/kernel-abi';
import { checkCsrMatmulDims } from '../csr-matmul-dims.js';

/** sparse_matrix_sparse_mat_mul: TensorFlow's CSR matmul checks (csr-matmul-dims.ts) on two CSR operands. */
export function sparseMatrixSparseMatMulDims(op: string, args: Record<string, unknown>): void {
  checkCsrMatmulDims(op, args, args.b as CsrData);
}
