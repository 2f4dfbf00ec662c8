import { InvalidArgumentError } from '@sparse/runtime';
import { toRuntimeArgs, type Case, type CaseRuntime, type ErrorKind } from '../../src/index.js';

/** What a backend made of a case: its outputs (and, if it handed the call to the JS kernels, why), a refusal, or a throw. */
export type Outcome =
  { outputs: Record<string, unknown>; delegated?: string } | { refused: ErrorKind } | { threw: string };

export async function outcome(rt: CaseRuntime, c: Case): Promise<Outcome> {
  try {
    const args = toRuntimeArgs(c.args);
    return rt.runWithReportAsync ? await rt.runWithReportAsync(c.op, args) : { outputs: await rt.run(c.op, args) };
  } catch (e) {
    if (e instanceof InvalidArgumentError) return { refused: 'InvalidArgument' };
    if (e instanceof TypeError) return { refused: 'TypeError' };
    return { threw: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

/** An outcome in words, for a message. */
export const told = (o: Outcome) =>
  'refused' in o ? `refused it (${o.refused})` : 'threw' in o ? `threw ${o.threw}` : 'returned outputs';
