import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { shapeText } from '../shape.js';

/**
 * sparse_cross, sparse_cross_hashed: every input a batch-first matrix (a SparseTensor or dense tensor of rank 2),
 * all of one batch size, dim 0: the first SparseTensor's, or the first dense tensor's where there is none (the
 * input TensorFlow's kernel takes it from, and names in "Expected batch size").
 */
export function sparseCrossInputs(op: string, args: Record<string, unknown>): void {
  const inputs = args.inputs as (SparseData | DenseData)[];
  inputs.forEach((x, i) => {
    if (x.shape.length !== 2) {
      const what = x.kind === 'sparse' ? 'a SparseTensor of dense shape' : 'a dense tensor of shape';
      throw new InvalidArgumentError(
        `${op}: inputs[${i}] must be a matrix (rank 2: batch, features), got ${what} ${shapeText(x.shape)}`,
      );
    }
  });
  const first = inputs.findIndex((x) => x.kind === 'sparse');
  const ref = first >= 0 ? first : 0;
  inputs.forEach((x, i) => {
    if (x.shape[0] !== inputs[ref].shape[0]) {
      throw new InvalidArgumentError(
        `${op}: expected batch size ${inputs[ref].shape[0]} (dim 0 of inputs[${ref}]), got ${x.shape[0]} at inputs[${i}]: every input must have the same batch size`,
      );
    }
  });
}
