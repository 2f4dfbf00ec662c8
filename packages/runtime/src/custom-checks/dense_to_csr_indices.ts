import { indexText, type DenseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { shapeText } from '../shape.js';
import { validateOrdered } from '../validate-sparse.js';

/**
 * dense_to_csr_sparse_matrix: `indices` is an [N, rank] matrix of positions inside `dense_input` (rank 2 or 3,
 * checked before), in canonical row-major order without repeats: TensorFlow's kernel assumes that order and
 * builds a wrong matrix from any other, so it is refused here. Messages begin as TensorFlow's.
 */
export function denseToCsrIndices(op: string, args: Record<string, unknown>): void {
  const dense = args.dense_input as DenseData;
  const indices = args.indices as DenseData;
  const rank = dense.shape.length;
  if (indices.shape.length !== 2)
    throw new InvalidArgumentError(`${op}: indices must be a matrix, but saw shape: ${shapeText(indices.shape)}`);
  if (indices.shape[1] !== rank)
    throw new InvalidArgumentError(
      `${op}: indices.shape[1] must be equal to the rank of params, but saw: ${indices.shape[1]} vs. ${rank}`,
    );
  const data = indices.data as BigInt64Array;
  const n = indices.shape[0];
  const dims = dense.shape.map(BigInt);
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < rank; d++) {
      const x = data[i * rank + d];
      if (x < 0n || x >= dims[d])
        throw new InvalidArgumentError(
          `${op}: indices[${i}] = ${indexText(data, i, rank)} does not index into param shape ${shapeText(dense.shape)}`,
        );
    }
  }
  validateOrdered(data, n, rank, `${op}: indices`);
}
