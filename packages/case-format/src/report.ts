/** How checks of the case format say what is wrong: every problem, with the path of the value it is about. */

/** Where a problem is, from the case down: `['expect', 'output', 'sparse', 'values', 2]`. */
export type CasePath = readonly (string | number)[];

/** Called once for each problem found; a check goes on after reporting, so one pass finds them all. */
export type Report = (path: CasePath, message: string) => void;

/** `['args', 'sp_input', 'sparse', 'indices', 1]` → `args.sp_input.sparse.indices[1]` */
export function formatPath(path: CasePath): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out;
}

/** A problem as one line of text: `path: message`, or the message alone for the case as a whole. */
export const problemText = (path: CasePath, message: string): string =>
  path.length === 0 ? message : `${formatPath(path)}: ${message}`;

/** The message for a required field that is absent, reported at the path of the mapping that lacks it. */
export const missingField = (field: string): string => `the field '${field}' is missing`;

/** Passes problems on to a report and remembers whether there were any, for checks that say if all was well. */
export class Tally {
  private found = 0;

  constructor(private readonly sink: Report) {}

  readonly report: Report = (path, message) => {
    this.found++;
    this.sink(path, message);
  };

  get clean(): boolean {
    return this.found === 0;
  }
}
