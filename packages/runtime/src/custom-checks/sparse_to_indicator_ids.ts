import type { SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from '../errors.js';

/** Every value of `values` (int32 or int64 ids) is in [0, vocab); the error names the entry, `what` and `vocabText`. */
export function checkIdsInVocab(
  op: string,
  what: string,
  values: SparseData['values'],
  vocab: number,
  vocabText: string,
): void {
  const n = values.length;
  if (values instanceof BigInt64Array) {
    const v = BigInt(vocab);
    for (let i = 0; i < n; i++) {
      if (values[i] < 0n || values[i] >= v) throw outOfRange(op, what, i, values[i], vocabText, vocab);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const x = values[i] as number;
      if (!(x >= 0 && x < vocab)) throw outOfRange(op, what, i, x, vocabText, vocab);
    }
  }
}

function outOfRange(
  op: string,
  what: string,
  i: number,
  x: number | bigint,
  vocabText: string,
  vocab: number,
): InvalidArgumentError {
  return new InvalidArgumentError(
    `${op}: ${what}.values[${i}] = ${x} is out of range: need 0 <= id < ${vocabText} = ${vocab}`,
  );
}

/** A vocab size is a dim: a whole number in [0, 2^53), so every id below it converts to an exact index. */
export function checkVocabSize(op: string, what: string, vocab: number): void {
  if (vocab < 0) throw new InvalidArgumentError(`${op}: ${what} = ${vocab} must be >= 0`);
  if (!Number.isSafeInteger(vocab)) {
    const text = Number.isInteger(vocab) ? BigInt(vocab).toString() : String(vocab);
    throw new InvalidArgumentError(`${op}: ${what} = ${text} is too large for a dim: need at most 2^53 - 1`);
  }
}

/** `vocab_size` is a size (>= 0) and every id of `sp_input` is in [0, vocab_size). */
export function sparseToIndicatorIds(op: string, args: Record<string, unknown>): void {
  const sp = args.sp_input as SparseData;
  const vocab = args.vocab_size as number;
  checkVocabSize(op, 'vocab_size', vocab);
  checkIdsInVocab(op, 'sp_input', sp.values, vocab, 'vocab_size');
}
