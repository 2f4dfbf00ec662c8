import type fc from 'fast-check';
import { runCase, type Case, type CaseRuntime } from '../../src/index.js';

/** A property of one op: random cases, and what a backend's run of a case must satisfy. */
export interface Property {
  op: string;
  /** What the cases are checked against, for the test's name. */
  against: string;
  cases: fc.Arbitrary<Case>;
  /** '' if the backend's run of the case holds the property, else what went wrong. */
  check(rt: CaseRuntime, c: Case): Promise<string>;
}

/** Random cases, each carrying the result a dense oracle computed for it (or the error it expects). */
export function oracleProperty(op: string, cases: fc.Arbitrary<Case>): Property {
  return { op, against: 'a dense oracle', cases, check: passesOn };
}

/** '' if the case passes; a declared delegation to the reference backend is right but not this backend's own result. */
async function passesOn(rt: CaseRuntime, c: Case): Promise<string> {
  const r = await runCase(rt, c);
  const ok = r.status === 'passed' || (rt.backend !== 'js' && r.status === 'delegated');
  return ok ? '' : `${r.status}: ${r.message}`;
}
