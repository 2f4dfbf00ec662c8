import type { Case, ErrorKind, ExpectError } from '@sparse/case-format';
import {
  InvalidArgumentError,
  ResourceExhaustedError,
  UnimplementedError,
  type Reported,
  type Runtime,
} from '@sparse/runtime';
import type { CaseResult, CaseStatus } from './case-result.js';
import { compareOutputs } from './compare.js';
import { messageMatches } from './message-match.js';
import { toRuntimeArgs } from './runtime-args.js';

/** What running a case needs of a runtime (a structural subset of Runtime, so a test can hand in a stand-in). */
export type CaseRuntime = Pick<Runtime, 'backend' | 'hasOp'> & {
  run(op: string, args: Record<string, unknown>): Record<string, unknown> | Promise<Record<string, unknown>>;
  /**
   * Where present: the outputs, and why another backend's kernel computed them if one did (a promise of them on
   * every backend, which an asynchronous one such as webgpu needs).
   */
  runWithReportAsync?(op: string, args: Record<string, unknown>): Promise<Reported>;
};

/**
 * Runs one case on one runtime. `unsupported` when the runtime lacks the op or throws UnimplementedError;
 * for `expect` cases `passed` iff the outputs agree with the expectation; for `expect_error` cases `passed` iff
 * the op throws the right kind of error with a message matching `match`. Never throws.
 */
export async function runCase(rt: CaseRuntime, c: Case): Promise<CaseResult> {
  const result = (status: CaseStatus, message = ''): CaseResult => ({
    op: c.op,
    name: c.name,
    backend: rt.backend,
    status,
    message,
  });

  if (!rt.hasOp(c.op)) return result('unsupported', `backend ${rt.backend} has no op '${c.op}'`);
  let outputs: Record<string, unknown>;
  let delegated: string | undefined;
  try {
    // Converting the args is inside the try: building a SparseTensor from bad data is itself the error some cases expect.
    const args = toRuntimeArgs(c.args);
    if (rt.runWithReportAsync) ({ outputs, delegated } = await rt.runWithReportAsync(c.op, args));
    else outputs = await rt.run(c.op, args);
  } catch (e) {
    if (e instanceof UnimplementedError) return result('unsupported', e.message);
    if (c.expect_error) {
      const problem = wrongError(e, c.expect_error);
      return problem ? result('failed', problem) : result('passed');
    }
    return result('failed', `threw ${describeError(e)}`);
  }
  if (c.expect_error)
    return result('failed', `expected ${describeExpected(c.expect_error)}, but the op returned normally`);
  if (!c.expect) return result('failed', `the case has neither expect nor expect_error`);
  let diff: string;
  try {
    diff = compareOutputs(outputs, c.expect, c.tolerance);
  } catch (e) {
    return result('failed', `malformed expect: ${(e as Error).message}`);
  }
  if (diff !== '') return result('failed', diff);
  // Right, but another backend's kernel computed it: say so rather than claim a pass.
  return delegated ? result('delegated', delegated) : result('passed');
}

/** Why a thrown error is not the one expected, or '' if it is. */
function wrongError(e: unknown, want: ExpectError): string {
  if (errorKindOf(e) !== want.kind) return `expected ${describeExpected(want)}, got ${describeError(e)}`;
  const message = String((e as Error).message);
  if (want.match === undefined) return '';
  let matches: boolean;
  try {
    matches = messageMatches(want.match, message);
  } catch (problem) {
    return `expect_error.match /${want.match}/ cannot be matched: ${describeError(problem)}`;
  }
  return matches ? '' : `expected ${describeExpected(want)}, got the message: ${message}`;
}

function errorKindOf(e: unknown): ErrorKind | undefined {
  if (e instanceof InvalidArgumentError) return 'InvalidArgument';
  if (e instanceof TypeError) return 'TypeError';
  if (e instanceof ResourceExhaustedError) return 'ResourceExhausted';
  return undefined;
}

const ERROR_NAMES: Record<ErrorKind, string> = {
  InvalidArgument: 'an InvalidArgumentError',
  TypeError: 'a TypeError',
  ResourceExhausted: 'a ResourceExhaustedError',
};

function describeExpected(want: ExpectError): string {
  const kind = ERROR_NAMES[want.kind];
  return want.match === undefined ? kind : `${kind} matching /${want.match}/`;
}

function describeError(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  try {
    return `a non-Error value: ${String(e)}`;
  } catch {
    // An object with no way to a string (Object.create(null)) must not turn a failed case into a crash.
    return `a non-Error value of type ${typeof e}`;
  }
}
