import { STATUSES, type CaseResult, type CaseStatus } from './case-result.js';

export type StatusCounts = Record<CaseStatus, number>;

/** Counts per backend, in the order of `backends` (each listed even with no results), then any others met. */
export function countByBackend(
  results: readonly CaseResult[],
  backends: readonly string[] = [],
): Map<string, StatusCounts> {
  const counts = new Map<string, StatusCounts>();
  const zero = (): StatusCounts => ({ passed: 0, failed: 0, unsupported: 0, delegated: 0 });
  for (const b of backends) counts.set(b, zero());
  for (const r of results) {
    let c = counts.get(r.backend);
    if (!c) counts.set(r.backend, (c = zero()));
    c[r.status]++;
  }
  return counts;
}

/** `js: 3 passed, 1 failed, 0 unsupported`, with `, N delegated` only when some were. */
export function formatSummaryLine(backend: string, counts: StatusCounts): string {
  const shown = STATUSES.filter((s) => s !== 'delegated' || counts.delegated > 0);
  return `${backend}: ${shown.map((s) => `${counts[s]} ${s}`).join(', ')}`;
}
