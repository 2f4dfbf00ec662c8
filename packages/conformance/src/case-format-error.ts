/** A case file, or one case in it, not in the case format (docs/cases.md); the message names the file and the case. */
export class CaseFormatError extends Error {
  override name = 'CaseFormatError';

  constructor(
    readonly file: string,
    problem: string,
    readonly index?: number,
    readonly caseName?: string,
  ) {
    super(`${file}: ${where(index, caseName)}${problem}`);
  }
}

function where(index: number | undefined, caseName: string | undefined): string {
  if (index === undefined) return '';
  return caseName === undefined ? `cases[${index}]: ` : `cases[${index}] (${caseName}): `;
}
