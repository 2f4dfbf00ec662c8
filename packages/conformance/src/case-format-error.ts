/**
 * A case file that cannot be read, or is not a list of cases (docs/cases.md); the message names the file. (An entry
 * of the list that is not a case is an UnreadableCase instead, so that the rest of the file still runs.)
 */
export class CaseFormatError extends Error {
  override name = 'CaseFormatError';

  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}
