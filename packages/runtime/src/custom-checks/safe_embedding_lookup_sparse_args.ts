import type { DenseData, SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { checkWeightCount, idInRange, idOutOfRange } from './embedding_lookup_sparse_args.js';

/**
 * safe_embedding_lookup_sparse: `sparse_weights` (when given) has one value per id; every id the op keeps (>= 0,
 * and with weights and a combiner other than `sum`, weight > 0) is a row of `embedding_weights`; and where a row is
 * left without ids, the id TensorFlow fills it with (`default_id`, or 0 when null) is a row too: TensorFlow's
 * gather refuses any other, also for a filled row it then sets to zeros. Each error names the argument and the
 * entry or row.
 */
export function safeEmbeddingLookupSparseArgs(op: string, args: Record<string, unknown>): void {
  const table = args.embedding_weights as DenseData;
  const sp = args.sparse_ids as SparseData;
  const weights = args.sparse_weights as SparseData | null;
  const defaultId = args.default_id as number | null;
  const n = sp.values.length;
  if (weights) checkWeightCount(op, 'sparse_weights', weights, 'sparse_ids', n);
  const vocab = table.shape[0];
  const pruneWeights = weights !== null && args.combiner !== 'sum';
  const kept: number[] = [];
  for (let i = 0; i < n; i++) {
    if ((sp.values[i] as number) < 0 || (pruneWeights && !((weights.values[i] as number) > 0))) continue;
    if (!idInRange(sp.values, i, vocab)) throw idOutOfRange(op, 'sparse_ids', sp, i, 'embedding_weights', vocab);
    kept.push(i);
  }
  const fill = defaultId ?? 0;
  if (fill >= 0 && fill < vocab) return;
  const row = firstEmptyRow(sp, kept);
  if (row === undefined) return;
  throw new InvalidArgumentError(
    defaultId === null
      ? `${op}: embedding_weights has no rows, and row ${row} of sparse_ids has no ids: TensorFlow looks up id 0 for it`
      : `${op}: default_id = ${defaultId} is out of range [0, ${vocab}) of the rows of embedding_weights, and row ${row} of sparse_ids has no ids to look up`,
  );
}

/**
 * The first row (over every dim of `sp` but the last, row-major) that none of the kept entries is in; undefined
 * when every row has one. That row is at most the number of kept entries, so a mark per row up to it suffices.
 */
function firstEmptyRow(sp: SparseData, kept: number[]): number | undefined {
  const rank = sp.shape.length;
  const dims = sp.shape.slice(0, -1);
  const rows = dims.reduce((a, b) => a * b, 1);
  const seen = new Uint8Array(Math.min(rows, kept.length + 1));
  for (const i of kept) {
    let r = 0;
    for (let k = 0; k < rank - 1; k++) r = r * dims[k] + sp.indices[i * rank + k];
    if (r < seen.length) seen[r] = 1;
  }
  const empty = seen.indexOf(0);
  return empty === -1 ? undefined : empty;
}
