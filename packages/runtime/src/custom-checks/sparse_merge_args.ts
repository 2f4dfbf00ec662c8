import type { SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';
import { checkIdsInVocab, checkVocabSize } from './sparse_to_indicator_ids.js';

/**
 * As TensorFlow requires: one SparseTensor of ids goes with one vocab size, a list with a list of the same length;
 * each vocab size is a dim (a whole number in [0, 2^53)); every SparseTensor of ids has rank >= 1 and one id per entry of `sp_ids[0]`, and
 * `sp_values` one value per entry; every id is in [0, its vocab size).
 */
export function sparseMergeArgs(op: string, args: Record<string, unknown>): void {
  const single = !Array.isArray(args.sp_ids);
  const ids = single ? [args.sp_ids as SparseData] : (args.sp_ids as SparseData[]);
  const vocabGiven = args.vocab_size as number | number[];
  if (single && Array.isArray(vocabGiven)) {
    throw new TypeError(
      `${op}: vocab_size must be a whole number when sp_ids is one SparseTensor (a list of vocab sizes goes with a list of sp_ids)`,
    );
  }
  if (!single && !Array.isArray(vocabGiven)) {
    throw new TypeError(
      `${op}: vocab_size must be a list of whole numbers, one per SparseTensor, when sp_ids is a list`,
    );
  }
  if (ids.length === 0)
    throw new InvalidArgumentError(`${op}: sp_ids is an empty list; it needs at least one SparseTensor of ids`);
  const vocab = Array.isArray(vocabGiven) ? vocabGiven : [vocabGiven];
  if (vocab.length !== ids.length) {
    throw new InvalidArgumentError(
      `${op}: sp_ids has ${ids.length} SparseTensors but vocab_size has ${vocab.length} sizes; they must have equal lengths`,
    );
  }
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const name = (k: number) => (single ? 'sp_ids' : `sp_ids[${k}]`);
  const vname = (k: number) => (single ? 'vocab_size' : `vocab_size[${k}]`);
  vocab.forEach((v, k) => checkVocabSize(op, vname(k), v));
  const n = ids[0].values.length;
  ids.forEach((st, k) => {
    if (st.shape.length < 1) throw new InvalidArgumentError(`${op}: ${name(k)} must have rank at least 1, got rank 0`);
    if (st.values.length !== n) {
      throw new InvalidArgumentError(
        `${op}: ${name(k)} has ${count(st.values.length, 'id')} but sp_ids[0] has ${n}; each needs one id per entry`,
      );
    }
  });
  const values = args.sp_values as SparseData;
  if (values.values.length !== n) {
    throw new InvalidArgumentError(
      `${op}: sp_values has ${count(values.values.length, 'value')} but ${name(0)} has ${count(n, 'id')}; it needs one value per id`,
    );
  }
  ids.forEach((st, k) => checkIdsInVocab(op, name(k), st.values, vocab[k], vname(k)));
}
