// The case format is @sparse/case-format's; what this package's functions take and give of it is re-exported.
export type {
  Case,
  DenseView,
  ErrorKind,
  ExpectError,
  OutputView,
  SparseView,
  TensorView,
  Tolerance,
} from '@sparse/case-format';
export { ERROR_KINDS, decodeFloat, formatValue, validateCase } from '@sparse/case-format';
export type { CaseResult, CaseStatus } from './case-result.js';
export { STATUSES } from './case-result.js';
export { CaseFormatError } from './case-format-error.js';
export { loadCases, parseCaseFile, CASE_FILE_EXTENSIONS, type LoadCasesOptions } from './load-cases.js';
export { isUnreadable, type LoadedCase, type UnreadableCase } from './unreadable-case.js';
export { decodeArgValue, toRuntimeArgs, toRuntimeValue } from './runtime-args.js';
export { expectedView } from './expected-view.js';
export { resultView } from './result-view.js';
export { compareOutputs, compareOutput } from './compare.js';
export { DEFAULT_TOLERANCE, isClose, resolveTolerance, type ResolvedTolerance } from './tolerance.js';
export { runCase, type CaseRuntime } from './run-case.js';
export { runCases, type RunCasesOptions, type RunStep } from './run-cases.js';
export { openRuntime } from './open-runtime.js';
export { parseBackendList } from './backend-names.js';
export { countByBackend, formatSummaryLine, type StatusCounts } from './summary.js';
