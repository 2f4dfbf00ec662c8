import { parseArgs } from 'node:util';
import { parseBackendList } from './backend-names.js';
import { reportPathProblem } from './report-path.js';

export const USAGE = `usage: sparse-conformance --cases <file|dir> [--backend js,wasm,gpu|all] [--json OUT] [--timeout-ms N]
                          [--load-timeout-ms N] [--verbose]

  --cases            a case file (.yaml, .yml, .json) or a directory of them (format: docs/cases.md)
  --backend          comma-separated backends to run on, or 'all' for every registered one (default: js)
  --json             also write [{op, name, backend, status, message}] to OUT (its folder must exist)
  --timeout-ms       the time each case on each backend, and opening each backend, may take (default: 30000)
  --load-timeout-ms  the time the process that runs the cases may take to start, and to load each case file
                     (default: 30000)
  --verbose          also print why each unsupported case did not run

Exit code: 0 no case failed, 1 some case failed, 2 bad usage, a case file that cannot be read or loaded, no
process to run the cases in, or a report that cannot be written.`;

/** Generous: the slowest spec example takes milliseconds; a case that takes this long is stuck. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Generous too: the process that runs the cases starts in well under a second, and the spec examples' 300 kB
 * load in milliseconds. A limit apart from --timeout-ms, so that a tight limit on cases cannot fail the start-up.
 */
export const DEFAULT_LOAD_TIMEOUT_MS = 30_000;

/** setTimeout's longest delay: past it Node fires at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export interface CliOptions {
  cases: string;
  /** As given: a comma-separated list, or `all` (see `selectBackends`). */
  backend: string;
  json?: string;
  timeoutMs: number;
  /** How long the runner may take to start, and to load each case file. */
  loadTimeoutMs: number;
  verbose: boolean;
}

/**
 * The command's options, checked before anything runs: `{help}` when asked for the usage, `{usageError}` (one
 * line) for anything wrong with them. The backends are checked apart, by `selectBackends`, once they are known.
 */
export function readCliOptions(argv: string[]): CliOptions | { help: true } | { usageError: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        cases: { type: 'string' },
        backend: { type: 'string', default: 'js' },
        json: { type: 'string' },
        'timeout-ms': { type: 'string', default: String(DEFAULT_TIMEOUT_MS) },
        'load-timeout-ms': { type: 'string', default: String(DEFAULT_LOAD_TIMEOUT_MS) },
        verbose: { type: 'boolean', short: 'v', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    return { usageError: (e as Error).message };
  }
  if (values.help) return { help: true };
  if (values.cases === undefined) return { usageError: '--cases is required' };

  const timeoutMs = milliseconds(values['timeout-ms']);
  if (typeof timeoutMs === 'string') return { usageError: `--timeout-ms: ${timeoutMs}` };
  const loadTimeoutMs = milliseconds(values['load-timeout-ms']);
  if (typeof loadTimeoutMs === 'string') return { usageError: `--load-timeout-ms: ${loadTimeoutMs}` };

  if (values.json !== undefined) {
    const problem = reportPathProblem(values.json);
    if (problem !== undefined) return { usageError: `--json: ${problem}` };
  }
  return {
    cases: values.cases,
    backend: values.backend,
    json: values.json,
    timeoutMs,
    loadTimeoutMs,
    verbose: values.verbose,
  };
}

/** A time limit as given: its milliseconds, or what is wrong with it. */
function milliseconds(given: string): number | string {
  const ms = /^\d+$/.test(given) ? Number(given) : NaN;
  if (ms >= 1 && ms <= MAX_TIMEOUT_MS) return ms;
  return `expected a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got '${given}'`;
}

/** The backends `--backend` names, or a usage error naming those that are not among `registered`. */
export function selectBackends(spec: string, registered: readonly string[]): string[] | { usageError: string } {
  const backends = parseBackendList(spec, registered);
  if (backends.length === 0) return { usageError: '--backend names no backend' };
  const unknown = backends.filter((b) => !registered.includes(b));
  if (unknown.length === 0) return backends;
  const names = unknown.map((b) => `'${b}'`).join(', ');
  const noun = unknown.length === 1 ? 'backend' : 'backends';
  return { usageError: `--backend: unknown ${noun} ${names}; the backends are ${registered.join(', ')}, or all` };
}
