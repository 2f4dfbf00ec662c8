import { indexText, type DenseData, type SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';

/**
 * embedding_lookup_sparse: `sp_weights` (when given) has one value per id and the rank of `sp_ids` (TensorFlow's
 * shape assertions); the entries of `sp_ids` are in row order (TensorFlow's segment sums refuse a row id below the
 * one before); and every id is a row of `params` (its gather refuses any other). Each error names the argument and the entry.
 * (The output's shape follows from the last entry's row: the runtime's budget counts it before the kernel runs.)
 */
export function embeddingLookupSparseArgs(op: string, args: Record<string, unknown>): void {
  const params = args.params as DenseData;
  const sp = args.sp_ids as SparseData;
  const weights = args.sp_weights as SparseData | null;
  const n = sp.values.length;
  const rank = sp.shape.length;
  if (weights) {
    checkWeightCount(op, 'sp_weights', weights, 'sp_ids', n);
    if (weights.shape.length !== rank) {
      throw new InvalidArgumentError(
        `${op}: sp_weights has rank ${weights.shape.length} but sp_ids has rank ${rank}; they must have the same indices`,
      );
    }
  }
  const idx = sp.indices;
  for (let i = 1; i < n; i++) {
    if (idx[i * rank] < idx[(i - 1) * rank]) {
      throw new InvalidArgumentError(
        `${op}: sp_ids.indices[${i}] = ${indexText(idx, i, rank)} is in row ${idx[i * rank]}, after an entry of row ${idx[(i - 1) * rank]}: the entries must be in row order (rows never decrease)`,
      );
    }
  }
  const vocab = params.shape[0];
  for (let i = 0; i < n; i++)
    if (!idInRange(sp.values, i, vocab)) throw idOutOfRange(op, 'sp_ids', sp, i, 'params', vocab);
}

/** One weight per id: TensorFlow asserts that the weights' values have the shape of the ids'. */
export function checkWeightCount(op: string, what: string, weights: SparseData, idsWhat: string, n: number): void {
  const m = weights.values.length;
  if (m !== n) {
    throw new InvalidArgumentError(
      `${op}: ${what} has ${m} value${m === 1 ? '' : 's'} but ${idsWhat} has ${n}; there must be one weight per id`,
    );
  }
}

/** Whether id i (int32 or int64) is a row of a table of `vocab` rows. */
export function idInRange(ids: SparseData['values'], i: number, vocab: number): boolean {
  const x = ids[i] as number | bigint;
  return typeof x === 'bigint' ? x >= 0n && x < BigInt(vocab) : x >= 0 && x < vocab;
}

export function idOutOfRange(
  op: string,
  what: string,
  sp: SparseData,
  i: number,
  table: string,
  vocab: number,
): InvalidArgumentError {
  return new InvalidArgumentError(
    `${op}: ${what}.values[${i}] = ${sp.values[i]} is out of range [0, ${vocab}) of the rows of ${table}`,
  );
}
