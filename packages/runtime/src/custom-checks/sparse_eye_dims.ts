import { InvalidArgumentError } from '../errors.js';

/** sparse_eye: each dim, `num_rows` and `num_columns` where given (null: as many as rows), is >= 0. */
export function sparseEyeDims(op: string, args: Record<string, unknown>): void {
  for (const name of ['num_rows', 'num_columns']) {
    const d = args[name] as number | null;
    if (d !== null && d < 0) throw new InvalidArgumentError(`${op}: ${name} = ${d} is negative: a dim must be >= 0`);
  }
}
