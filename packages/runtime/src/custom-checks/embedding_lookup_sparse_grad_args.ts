import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { sameShape, shapeText } from '../shape.js';
import { embeddingLookupSparseArgs } from './embedding_lookup_sparse_args.js';

/**
 * embedding_lookup_sparse_grad: the lookup's own checks, and `grad` of the lookup's output shape, [last row of
 * sp_ids holding an id + 1, ...params.shape[1:]] (which only the ids say, so no shape rule gives it).
 */
export function embeddingLookupSparseGradArgs(op: string, args: Record<string, unknown>): void {
  embeddingLookupSparseArgs(op, args);
  const sp = args.sp_ids as SparseData;
  const n = sp.values.length;
  const rows = n === 0 ? 0 : sp.indices[(n - 1) * sp.shape.length] + 1;
  const want = [rows, ...(args.params as DenseData).shape.slice(1)];
  const got = (args.grad as DenseData).shape;
  if (!sameShape(got, want))
    throw new InvalidArgumentError(
      `${op}: grad has shape ${shapeText(got)}; it must have the shape of the output of embedding_lookup_sparse, ${shapeText(want)}`,
    );
}
