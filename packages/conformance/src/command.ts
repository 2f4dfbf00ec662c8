import { readCliOptions, selectBackends, USAGE } from './cli-options.js';
import { writeJsonReport } from './report-path.js';
import { runCasesWithTimeLimit } from './run-cases-with-time-limit.js';
import { whyNotLoaded, type RunnerProcess } from './runner-process.js';
import { countByBackend, formatSummaryLine } from './summary.js';

/**
 * The sparse-conformance command, on the arguments after the program name, with a runner process started for it
 * (runner-process.ts: the cases are loaded and run there; this process checks the arguments, keeps the time and
 * reports). Returns the exit code: 0 nothing failed, 1 some case failed, 2 bad usage, an unreadable case file or
 * one that did not load within --load-timeout-ms, no process to run the cases in (one that died or did not start
 * within --load-timeout-ms), no case run (without --allow-empty), or an unwritable report.
 */
export async function runCommand(argv: string[], runner: RunnerProcess): Promise<number> {
  const options = readCliOptions(argv);
  if ('help' in options) {
    console.log(USAGE);
    return 0;
  }
  if ('usageError' in options) return usageError(options.usageError);

  const loaded = await runner.load(options, options.loadTimeoutMs);
  if ('loadError' in loaded) return fail(loaded.loadError);
  if (!('cases' in loaded)) return fail(whyNotLoaded(loaded, options.loadTimeoutMs, 'the process to run the cases'));
  const backends = selectBackends(options.backend, loaded.backends);
  if ('usageError' in backends) return usageError(backends.usageError);
  // A gate must not pass on nothing: a folder of no case file, or of empty ones, is a mistake until said otherwise.
  if (loaded.cases.length === 0 && !options.allowEmpty) {
    const n = loaded.files;
    const what =
      n === 0
        ? 'no case file there'
        : n === 1
          ? 'its list of cases is empty'
          : `the lists of cases of its ${n} case files are empty`;
    return fail(`${options.cases}: no case to run: ${what} (--allow-empty accepts that)`);
  }

  const results = await runCasesWithTimeLimit(options, loaded.cases, backends, runner);
  for (const r of results) {
    if (r.status === 'failed') console.log(`FAIL ${r.backend} ${r.op}/${r.name}: ${r.message}`);
    else if (options.verbose && r.status === 'unsupported')
      console.log(`UNSUPPORTED ${r.backend} ${r.op}/${r.name}: ${r.message}`);
  }
  for (const [backend, counts] of countByBackend(results, backends)) console.log(formatSummaryLine(backend, counts));

  if (options.json !== undefined) {
    try {
      writeJsonReport(options.json, results);
    } catch (e) {
      return fail(`cannot write the JSON report: ${(e as Error).message}`);
    }
  }
  if (results.some((r) => r.status === 'failed')) return 1;
  // Every case unsupported on every backend (a backend that cannot open here, say): nothing was checked.
  if (results.length > 0 && results.every((r) => r.status === 'unsupported') && !options.allowEmpty)
    return fail(
      `no case ran: every case was unsupported on ${backends.join(', ')} (--verbose says why; --allow-empty accepts that)`,
    );
  return 0;
}

const usageError = (problem: string) => fail(`${problem} (sparse-conformance --help for the usage)`);

/** One line on stderr, no stack trace: what is wrong is the command line or a file, not this program. */
function fail(problem: string): number {
  console.error(`sparse-conformance: ${problem}`);
  return 2;
}
