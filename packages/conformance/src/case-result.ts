/** The result of running one conformance case on one backend. */

/** `delegated`: a backend handed the op to another backend (an explicit fallback), so the result is not its own. */
export const STATUSES = ['passed', 'failed', 'unsupported', 'delegated'] as const;
export type CaseStatus = (typeof STATUSES)[number];

export interface CaseResult {
  op: string;
  name: string;
  backend: string;
  status: CaseStatus;
  /** Empty when passed; otherwise what differed, what was thrown, or why the case could not run. */
  message: string;
}
