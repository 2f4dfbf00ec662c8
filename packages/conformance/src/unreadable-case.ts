import { isRecord, type Case } from '@sparse/case-format';

/**
 * An entry of a case file that is not a case (docs/cases.md), or repeats an op/name pair. It is loaded rather
 * than refused so that the rest of the file still runs, and it is reported as failed on every backend.
 */
export interface UnreadableCase {
  /** The entry's `op` where it has one, else `(no op)`. */
  op: string;
  /** The entry's `name` where it has one, else its place in the file, `cases[3]`. */
  name: string;
  /** The file, the entry's place and name, then every problem with its path. */
  unreadable: string;
}

/** What loading a case file gives: cases, and in their places the entries that are not. */
export type LoadedCase = Case | UnreadableCase;

export const isUnreadable = (c: LoadedCase): c is UnreadableCase => 'unreadable' in c;

/** The entry at `index` of `file`, refused for `problem` (`my.yaml: cases[3] (axis_1): expect.output: …`). */
export function unreadableCase(raw: unknown, file: string, index: number, problem: string): UnreadableCase {
  const field = (key: string) =>
    isRecord(raw) && typeof raw[key] === 'string' && raw[key] !== '' ? (raw[key] as string) : undefined;
  const name = field('name');
  const place = name === undefined ? `cases[${index}]` : `cases[${index}] (${name})`;
  return { op: field('op') ?? '(no op)', name: name ?? `cases[${index}]`, unreadable: `${file}: ${place}: ${problem}` };
}
