import { problemText, readExpectedOutput, type OutputView } from '@sparse/case-format';

/**
 * The view of an expected output written in a case (`{sparse}`, `{dense}` or a list of those), read by the case
 * format. Throws an Error listing, under `path`, every way it is not a well-formed tensor of its dtype.
 */
export function expectedView(value: unknown, path: string): OutputView {
  const problems: string[] = [];
  const view = readExpectedOutput(value, [path], (p, message) => problems.push(problemText(p, message)));
  if (view === undefined) throw new Error(problems.join('; '));
  return view;
}
