import type { DenseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { shapeText } from '../shape.js';
import { checkCsrMatmulDims } from '../csr-matmul-dims.js';

/**
 * sparse_matrix_mat_mul: b a dense matrix or batch of them (rank 2 or 3), then TensorFlow's CSR matmul checks
 * (csr-matmul-dims.ts).
 */
export function sparseMatrixMatMulDims(op: string, args: Record<string, unknown>): void {
  const b = args.b as DenseData;
  if (b.shape.length !== 2 && b.shape.length !== 3)
    throw new InvalidArgumentError(`${op}: b must have rank 2 or 3, got shape ${shapeText(b.shape)}`);
  checkCsrMatmulDims(op, args, b);
}
