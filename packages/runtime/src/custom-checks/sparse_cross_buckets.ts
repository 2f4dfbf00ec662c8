import { InvalidArgumentError } from '../errors.js';

/** sparse_cross_hashed: num_buckets ≥ 0 (0: no buckets), as TensorFlow's attr `num_buckets: int >= 0`. */
export function sparseCrossBuckets(op: string, args: Record<string, unknown>): void {
  const n = args.num_buckets as number;
  if (n < 0) throw new InvalidArgumentError(`${op}: num_buckets = ${n} must be >= 0 (0 for no buckets)`);
}
