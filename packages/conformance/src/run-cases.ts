import type { Case } from '@sparse/case-format';
import type { CaseResult } from './case-result.js';
import { openRuntime } from './open-runtime.js';
import { runCase } from './run-case.js';

/**
 * Runs every case on every backend, backend by backend, in order. A backend that cannot be created reports
 * each of its cases as `unsupported`, with the reason.
 */
export async function runCases(cases: readonly Case[], backends: readonly string[]): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const backend of backends) {
    const opened = await openRuntime(backend);
    for (const c of cases) {
      results.push(
        'runtime' in opened
          ? await runCase(opened.runtime, c)
          : { op: c.op, name: c.name, backend, status: 'unsupported', message: opened.reason },
      );
    }
  }
  return results;
}
