import { totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { parseBackendList } from './backend-names.js';
import { DEFAULT_MAX_FILE_BYTES } from './read-case-file.js';
import { reportPathProblem } from './report-path.js';

/**
 * The byte budget of each backend's runtime, for one op's outputs and working memory: 1 GiB, or a quarter of the
 * machine's memory where that is less. Far under the runtime's own default (a quarter of the machine, 32 GB on a
 * 128 GB one), which a 600-byte case could fill: the spec examples need kilobytes.
 */
export const defaultMaxBytes = () => Math.min(2 ** 30, Math.floor(totalmem() / 4));

export const USAGE = `usage: sparse-conformance --cases <file|dir> [--backend js,wasm,gpu|all] [--json OUT] [--timeout-ms N]
                          [--load-timeout-ms N] [--max-bytes N] [--max-file-bytes N] [--allow-empty] [--verbose]

  --cases            a case file (.yaml, .yml, .json) or a directory of them, symbolic links followed
                     (format: docs/cases.md; lists and maps nested at most 300 deep)
  --backend          comma-separated backends to run on, or 'all' for every registered one (default: js)
  --json             also write [{op, name, backend, status, message}] to OUT (its folder must exist)
  --timeout-ms       the time each case on each backend, and opening each backend, may take (default: 30000)
  --load-timeout-ms  the time the process that runs the cases may take to start, and to load each case file
                     (default: 30000)
  --max-bytes        the bytes one op's outputs and working memory may take in a case; a case that needs more
                     fails with a ResourceExhaustedError, unless it expects one (default: 1 GiB, or a quarter of
                     the machine's memory if less)
  --max-file-bytes   the bytes a case file may hold; a larger one, or one that is not a regular file, is refused
                     (default: 64 MiB)
  --allow-empty      exit 0 when no case runs: none loaded, or every one unsupported on every backend
  --verbose          also print why each unsupported case did not run

Sizes are whole numbers of bytes, or with KiB, MiB or GiB after them (512MiB).

Exit code: 0 no case failed, 1 some case failed, 2 bad usage, a case file that cannot be read or loaded, no
process to run the cases in, no case run (without --allow-empty), or a report that cannot be written.`;

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
  /** The byte budget of each backend's runtime (`createRuntime({ maxBytes })`). */
  maxBytes: number;
  /** The most bytes a case file may hold. */
  maxFileBytes: number;
  /** Whether a run in which no case ran exits 0. */
  allowEmpty: boolean;
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
        'max-bytes': { type: 'string' },
        'max-file-bytes': { type: 'string', default: String(DEFAULT_MAX_FILE_BYTES) },
        'allow-empty': { type: 'boolean', default: false },
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
  const maxBytes = values['max-bytes'] === undefined ? defaultMaxBytes() : bytes(values['max-bytes']);
  if (typeof maxBytes === 'string') return { usageError: `--max-bytes: ${maxBytes}` };
  const maxFileBytes = bytes(values['max-file-bytes']);
  if (typeof maxFileBytes === 'string') return { usageError: `--max-file-bytes: ${maxFileBytes}` };

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
    maxBytes,
    maxFileBytes,
    allowEmpty: values['allow-empty'],
    verbose: values.verbose,
  };
}

const UNITS: Record<string, number> = { '': 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30 };

/** A size as given (`1048576`, `512MiB`): its bytes, or what is wrong with it. */
function bytes(given: string): number | string {
  const m = /^(\d+)(KiB|MiB|GiB)?$/.exec(given);
  const n = m === null ? NaN : Number(m[1]) * UNITS[m[2] ?? ''];
  if (n >= 1 && n <= Number.MAX_SAFE_INTEGER) return n;
  return `expected a whole number of bytes from 1, optionally followed by KiB, MiB or GiB, got '${given}'`;
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
