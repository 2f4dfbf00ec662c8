import type { CaseResult } from './case-result.js';
import { openRuntime } from './open-runtime.js';
import { runCase } from './run-case.js';
import { isUnreadable, type LoadedCase } from './unreadable-case.js';

/**
 * One step of a run, as `runCases` reports it: opening a backend's runtime, starting a unit (one case on one
 * backend; unit `u` is case `u % cases.length` on backend `floor(u / cases.length)`), or a unit's result.
 */
export type RunStep =
  | { step: 'opening'; backend: string }
  | { step: 'running'; unit: number }
  | { step: 'finished'; unit: number; result: CaseResult };

export interface RunCasesOptions {
  /** The first unit to run; those before it are skipped (to resume a run). Default 0. */
  from?: number;
  /** Told of each step as it is taken, before it is taken (so a watcher knows what a stuck run is doing). */
  onStep?: (step: RunStep) => void;
  /** The byte budget of each backend's runtime (`createRuntime({ maxBytes })`); the runtime's default if absent. */
  maxBytes?: number;
}

/**
 * Runs every case on every backend, backend by backend, in order. A backend that cannot be created reports
 * each of its cases as `unsupported`, with the reason; an unreadable case is `failed` on every backend, saying why.
 */
export async function runCases(
  cases: readonly LoadedCase[],
  backends: readonly string[],
  { from = 0, onStep, maxBytes }: RunCasesOptions = {},
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  let opened: { backend: string; outcome: Awaited<ReturnType<typeof openRuntime>> } | undefined;
  for (let unit = from; unit < cases.length * backends.length; unit++) {
    const backend = backends[Math.floor(unit / cases.length)];
    const c = cases[unit % cases.length];
    if (opened?.backend !== backend) {
      onStep?.({ step: 'opening', backend });
      opened = { backend, outcome: await openRuntime(backend, maxBytes) };
    }
    onStep?.({ step: 'running', unit });
    const { outcome } = opened;
    let result: CaseResult;
    if (isUnreadable(c)) result = { op: c.op, name: c.name, backend, status: 'failed', message: c.unreadable };
    else if ('runtime' in outcome) result = await runCase(outcome.runtime, c);
    else result = { op: c.op, name: c.name, backend, status: 'unsupported', message: outcome.reason };
    onStep?.({ step: 'finished', unit, result });
    results.push(result);
  }
  return results;
}
