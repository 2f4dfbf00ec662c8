#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { listBackends } from '@sparse/runtime';
import { parseBackendList } from './backend-names.js';
import { loadCases } from './load-cases.js';
import { runCases } from './run-cases.js';
import { countByBackend, formatSummaryLine } from './summary.js';

const USAGE = `usage: sparse-conformance --cases <file|dir> [--backend js,wasm,gpu|all] [--json OUT] [--verbose]

  --cases    a case file (.yaml, .yml, .json) or a directory of them (format: docs/cases.md)
  --backend  comma-separated backends to run on, or 'all' for every registered one (default: js)
  --json     also write [{op, name, backend, status, message}] to OUT
  --verbose  also print why each unsupported case did not run`;

/** Exit codes: 0 nothing failed, 1 some case failed, 2 bad usage or an unreadable case file. */
async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        cases: { type: 'string' },
        backend: { type: 'string', default: 'js' },
        json: { type: 'string' },
        verbose: { type: 'boolean', short: 'v', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    return usageError((e as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.cases === undefined) return usageError('--cases is required');
  const backends = parseBackendList(values.backend, listBackends());
  if (backends.length === 0) return usageError(`--backend names no backend`);

  let cases;
  try {
    cases = loadCases(values.cases);
  } catch (e) {
    console.error(`sparse-conformance: ${(e as Error).message}`);
    return 2;
  }

  const results = await runCases(cases, backends);
  for (const r of results) {
    if (r.status === 'failed') console.log(`FAIL ${r.backend} ${r.op}/${r.name}: ${r.message}`);
    else if (values.verbose && r.status === 'unsupported')
      console.log(`UNSUPPORTED ${r.backend} ${r.op}/${r.name}: ${r.message}`);
  }
  for (const [backend, counts] of countByBackend(results, backends)) console.log(formatSummaryLine(backend, counts));

  if (values.json !== undefined) {
    const report = results.map(({ op, name, backend, status, message }) => ({ op, name, backend, status, message }));
    writeFileSync(values.json, JSON.stringify(report, null, 2) + '\n');
  }
  return results.some((r) => r.status === 'failed') ? 1 : 0;
}

function usageError(problem: string): number {
  console.error(`sparse-conformance: ${problem}\n${USAGE}`);
  return 2;
}

// exitCode rather than exit(): lets stdout drain when it is a pipe.
process.exitCode = await main(process.argv.slice(2));
