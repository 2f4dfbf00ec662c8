import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { shapeText } from '../shape.js';

/**
 * sparse_tensor_dense_matmul: the inner dimensions agree after the adjoint flags, the columns of op(sp_a) and the
 * rows of op(b). Runs after both operands are checked to be rank 2. The message starts as TensorFlow's does.
 */
export function sparseDenseMatmulInnerDims(op: string, args: Record<string, unknown>): void {
  const a = (args.sp_a as SparseData | DenseData).shape;
  const b = (args.b as SparseData | DenseData).shape;
  const adjA = args.adjoint_a === true;
  const adjB = args.adjoint_b === true;
  const inA = adjA ? a[0] : a[1];
  const inB = adjB ? b[1] : b[0];
  if (inA !== inB) {
    throw new InvalidArgumentError(
      `${op}: Cannot multiply A and B because inner dimension does not match: ${inA} vs. ${inB}. ` +
        `Did you forget a transpose? sp_a has shape ${shapeText(a)} (adjoint_a=${adjA}), b has shape ${shapeText(b)} (adjoint_b=${adjB})`,
    );
  }
}
