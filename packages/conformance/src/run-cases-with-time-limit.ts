import type { CaseResult } from './case-result.js';
import type { CaseName, RunnerLoaded } from './runner-protocol.js';
import { RunnerProcess, whyNotLoaded, type RunnerEnd } from './runner-process.js';

/** Where the cases are, and the limits of a run (the command's options). */
export interface TimeLimitedRun {
  /** The case file or folder, which each new process loads again. */
  cases: string;
  /** The most bytes a case file may hold. */
  maxFileBytes: number;
  /** The byte budget of each backend's runtime. */
  maxBytes: number;
  /** How long opening a backend, or running a case on one, may take. */
  timeoutMs: number;
  /** How long a new process may take to start, and to load each case file. */
  loadTimeoutMs: number;
}

/**
 * Runs every case of a case file on every backend as runCases does, in a child process in which each step,
 * opening a backend or running one case on one, must end within `timeoutMs`. A step that does not is stopped by
 * killing the process and reported as failed; the run goes on in a new process from the next case. A process that
 * dies (out of memory, a crash in native code) is reported the same way. So every case gets a result, whatever it
 * does: a new process that does not start, or load the cases again, within `loadTimeoutMs` fails the cases left.
 * `runner` is the first process, which loaded `cases` from `run.cases`; the others load it again.
 */
export async function runCasesWithTimeLimit(
  { cases: casesPath, maxFileBytes, maxBytes, timeoutMs, loadTimeoutMs }: TimeLimitedRun,
  cases: readonly CaseName[],
  backends: readonly string[],
  runner: RunnerProcess,
): Promise<CaseResult[]> {
  const total = cases.length * backends.length;
  const results: CaseResult[] = [];
  const failUnit = (unit: number, message: string) => {
    const c = cases[unit % cases.length];
    const backend = backends[Math.floor(unit / cases.length)];
    results.push({ op: c.op, name: c.name, backend, status: 'failed', message });
  };
  /**
   * Fails the case, or the backend's cases, that a runner was stopped in or died in (a runner is always in one
   * until its last result: it begins by opening the first unit's backend).
   */
  const failWhereItEnded = (end: Exclude<RunnerEnd, { finished: true } | { interrupted: true }>) => {
    const at = results.length;
    if (end.during?.step === 'running') {
      failUnit(at, 'timedOut' in end ? `timed out after ${timeoutMs} ms` : `the process running the case ${end.died}`);
    } else if (end.during?.step === 'opening') {
      const { backend } = end.during;
      const message =
        'timedOut' in end
          ? `backend ${backend} did not open within ${timeoutMs} ms`
          : `the process opening backend ${backend} ${end.died}`;
      const backendEnd = (Math.floor(at / cases.length) + 1) * cases.length;
      for (let unit = at; unit < backendEnd; unit++) failUnit(unit, message);
    }
  };
  while (results.length < total) {
    const from = results.length;
    const end = await runner.run({ backends, from, maxBytes }, total, timeoutMs, (r) => results.push(r));
    if ('finished' in end) break;
    // Interrupted, the runner leaves nothing to blame: the run goes on from where it was.
    if (!('interrupted' in end)) failWhereItEnded(end);
    if (results.length === total) break;
    runner = new RunnerProcess();
    const reloaded = await runner.load({ cases: casesPath, maxFileBytes }, loadTimeoutMs);
    const problem = reloadProblem(reloaded, cases, loadTimeoutMs);
    if (problem !== undefined)
      for (let unit = results.length; unit < total; unit++)
        failUnit(unit, `a new process to run the cases could not load them: ${problem}`);
  }
  // The last process may be waiting for a job still: with no case to run, or after a failed reload.
  runner.close();
  return results;
}

/** Why a new runner's load is not the cases the run began with, or undefined if it is. */
function reloadProblem(
  loaded: RunnerLoaded | RunnerEnd,
  cases: readonly CaseName[],
  loadTimeoutMs: number,
): string | undefined {
  if ('cases' in loaded) {
    const same = loaded.cases.every((c, i) => c.op === cases[i]?.op && c.name === cases[i].name);
    return same && loaded.cases.length === cases.length ? undefined : 'the case file changed during the run';
  }
  if ('loadError' in loaded) return loaded.loadError;
  return whyNotLoaded(loaded, loadTimeoutMs, 'it');
}
