import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listBackends } from '@sparse/runtime';
import { STATUSES, type CaseResult } from '../src/case-result.js';

// The CLI as installed: the built dist (run `npx tsc -p packages/conformance/tsconfig.json` first).
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sparse-conformance-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Registers the backends `misbehaving`, `never-opens` and `unavailable` in the command and its runner process.
const misbehavingBackends = new URL('./fixtures/misbehaving-backends.mjs', import.meta.url).href;

// Makes the command's runner process misbehave before its first case, as SPARSE_TEST_RUNNER says (see the file).
const misbehavingRunner = new URL('./fixtures/misbehaving-runner.mjs', import.meta.url).href;

/**
 * Runs the command; `withBackends` loads the misbehaving backends into it, `runner` loads the misbehaving runner
 * module, telling it how to misbehave; `nodeOptions` adds to NODE_OPTIONS (which its runner process gets too).
 * `timeout` is long enough to tell a hang from a slow machine.
 */
function runCli(args: string[], { withBackends = false, runner = '', nodeOptions = '', timeout = 60_000 } = {}) {
  const imports = [
    withBackends ? `--import=${misbehavingBackends}` : '',
    runner ? `--import=${misbehavingRunner}` : '',
  ];
  const env = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${imports.join(' ')} ${nodeOptions}`,
    SPARSE_TEST_RUNNER: runner,
  };
  const started = performance.now();
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout, env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - started };
}

/** Writes a case file (YAML text, or JSON of a value) into the test's folder and returns its path. */
function caseFile(name: string, content: string | unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const summaryOf = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .filter((l) => /^[\w-]+: \d+ passed/.test(l));

const passing = `- op: sparse_tensor_to_dense
  name: to_dense_ok
  args:
    sp_input:
      sparse: {indices: [[0, 1], [1, 0]], values: [1.5, nan], dense_shape: [2, 2]}
      dtype: float32
  expect:
    output: {dense: [[0, 1.5], [nan, 0]], dtype: float32}
`;
const errorExpecting = `- op: sparse_tensor_to_dense
  name: unordered_rejected
  args:
    sp_input:
      sparse: {indices: [[1, 0], [0, 0]], values: [1, 2], dense_shape: [2, 2]}
      dtype: int32
  expect_error: {kind: InvalidArgument}
`;
const unknownOp = `- op: no_such_op
  name: anything
  args: {x: 1}
  expect: {output: {dense: [1], dtype: int32}}
`;
const failing = `- op: sparse_tensor_to_dense
  name: wrong_expectation
  args:
    sp_input:
      sparse: {indices: [[0, 1]], values: [7], dense_shape: [2, 2]}
      dtype: int32
  expect:
    output: {dense: [[0, 8], [0, 0]], dtype: int32}
`;

/** A good case on any backend with a correct sparse_reorder (the misbehaving one has it). */
const ordered = {
  op: 'sparse_reorder',
  name: 'already_in_order',
  args: { sp_input: { sparse: { indices: [[0], [2]], values: [1, 2], dense_shape: [3] }, dtype: 'int32' } },
  expect: { output: { sparse: { indices: [[0], [2]], values: [1, 2], dense_shape: [3] }, dtype: 'int32' } },
};
/** A case on the op each misbehaving kernel is: the args are valid, so that the kernel is what runs. */
const onKernel = (op: string, name: string) => ({
  op,
  name,
  args: { sp_input: { sparse: { indices: [[0]], values: [-1], dense_shape: [2] }, dtype: 'int32' } },
  expect: { output: { dense: [-1, 0], dtype: 'int32' } },
});

describe('sparse-conformance', () => {
  beforeAll(() => {
    expect(existsSync(cli), `${cli} is missing: build the package first`).toBe(true);
  });

  it('reports a failing case, writes the JSON report and exits 1', () => {
    const cases = caseFile('with-failure.yaml', passing + errorExpecting + unknownOp + failing);
    const out = join(dir, 'report.json');
    const r = runCli(['--cases', cases, '--json', out]);
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('js: 2 passed, 1 failed, 1 unsupported');
    expect(r.stdout).toContain('sparse_tensor_to_dense/wrong_expectation: output[0][1]: got 7, want 8');
    // Failures come above the summary.
    expect(lines.findIndex((l) => l.includes('wrong_expectation'))).toBeLessThan(lines.length - 1);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report).toEqual([
      { op: 'sparse_tensor_to_dense', name: 'to_dense_ok', backend: 'js', status: 'passed', message: '' },
      { op: 'sparse_tensor_to_dense', name: 'unordered_rejected', backend: 'js', status: 'passed', message: '' },
      {
        op: 'no_such_op',
        name: 'anything',
        backend: 'js',
        status: 'unsupported',
        message: expect.stringContaining('no_such_op'),
      },
      {
        op: 'sparse_tensor_to_dense',
        name: 'wrong_expectation',
        backend: 'js',
        status: 'failed',
        message: 'output[0][1]: got 7, want 8',
      },
    ]);
  });

  it('exits 0 when nothing fails, unsupported cases included', () => {
    const cases = caseFile('no-failure.json', [
      {
        op: 'sparse_tensor_to_dense',
        name: 'json_ok',
        args: {
          sp_input: { sparse: { indices: [[1]], values: ['b'], dense_shape: [3] }, dtype: 'string' },
          default_value: 'z',
        },
        expect: { output: { dense: ['z', 'b', 'z'], dtype: 'string' } },
      },
      { op: 'no_such_op', name: 'anything', args: {}, expect_error: { kind: 'TypeError' } },
    ]);
    const r = runCli(['--cases', cases]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual(['js: 1 passed, 0 failed, 1 unsupported']);
  });

  it('reports a registered backend it cannot open as unsupported, one summary line per backend', () => {
    const cases = caseFile('one.yaml', passing);
    const r = runCli(['--cases', cases, '--backend', 'js,unavailable'], { withBackends: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      'js: 1 passed, 0 failed, 0 unsupported',
      'unavailable: 0 passed, 0 failed, 1 unsupported',
    ]);
  });

  it('runs dense_shape and indices written as digit strings, holding a dim past 2^53 exactly as the runtime does', () => {
    const sparse = (denseShape: string[]) => ({
      sparse: { indices: [['0', '1']], values: [7], dense_shape: denseShape },
      dtype: 'int32',
    });
    const cases = caseFile('digit-strings.json', [
      {
        op: 'sparse_tensor_to_dense',
        name: 'digit_string_dims',
        args: { sp_input: sparse(['2', '3']) },
        expect: {
          output: {
            dense: [
              [0, 7, 0],
              [0, 0, 0],
            ],
            dtype: 'int32',
          },
        },
      },
      {
        op: 'sparse_tensor_to_dense',
        name: 'dim_past_2_53',
        args: { sp_input: sparse(['9007199254740993', '3']) },
        expect_error: { kind: 'ResourceExhausted', match: 'dense shape \\[9007199254740993,3\\]' },
      },
      {
        op: 'sparse_reorder',
        name: 'dim_past_2_53_exact',
        args: { sp_input: sparse(['9007199254740993', '3']) },
        expect: { output: sparse(['9007199254740993', '3']) },
      },
    ]);
    const r = runCli(['--cases', cases]);
    expect(r.stdout + r.stderr).toBe('js: 3 passed, 0 failed, 0 unsupported\n');
    expect(r.code).toBe(0);
  });
});

describe('sparse-conformance: bad usage exits 2 with one line on stderr, before any case runs', () => {
  const good = () => caseFile('good.yaml', passing);

  /** Exit 2, nothing on stdout (so no case ran: the summary would be there), one line on stderr. */
  function expectUsageError(r: ReturnType<typeof runCli>, message: RegExp): void {
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^sparse-conformance: /);
    expect(r.stderr).toMatch(message);
  }

  it('for a missing --cases or an unknown option, pointing to --help', () => {
    expectUsageError(runCli([]), /--cases is required \(sparse-conformance --help for the usage\)/);
    expectUsageError(runCli(['--case', 'x.yaml']), /Unknown option '--case'/);
  });

  it('for an unknown backend, naming the ones there are', () => {
    expectUsageError(
      runCli(['--cases', good(), '--backend', 'js,wsam']),
      new RegExp(`--backend: unknown backend 'wsam'; the backends are ${listBackends().join(', ')}, or all`),
    );
  });

  it('for --json into a folder that does not exist, writing nothing', () => {
    const out = join(dir, 'no-such-folder', 'report.json');
    expectUsageError(runCli(['--cases', good(), '--json', out]), /--json: the folder .*no-such-folder does not exist/);
    expect(existsSync(out)).toBe(false);
  });

  it('for --json naming a folder', () => {
    expectUsageError(runCli(['--cases', good(), '--json', dir]), /--json: .* is a folder/);
  });

  it('for a --timeout-ms or --load-timeout-ms that is not a whole number of milliseconds', () => {
    for (const option of ['--timeout-ms', '--load-timeout-ms'])
      for (const ms of ['0', '1.5', 'soon', '3000000000'])
        expectUsageError(runCli(['--cases', good(), option, ms]), new RegExp(`${option}: expected a whole number`));
  });

  it('for a case file that is not JSON, or not a list of cases', () => {
    expectUsageError(runCli(['--cases', caseFile('not-json.json', '[{"op": ')]), /not-json\.json: cannot parse/);
    expectUsageError(
      runCli(['--cases', caseFile('not-a-list.json', '{"op": "x"}')]),
      /not-a-list\.json: expected a list of cases, or \{cases: \[\.\.\.\]\}/,
    );
  });
});

describe('sparse-conformance: a case it cannot read or run fails alone, and the rest runs', () => {
  it('reports a malformed case as failed with its reason, and runs the good one', () => {
    const cases = caseFile('one-malformed.yaml', '- op: x\n  name: broken\n  args: {}\n' + passing);
    const r = runCli(['--cases', cases]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe(
      `FAIL js x/broken: ${cases}: cases[0] (broken): a case has exactly one of 'expect' and 'expect_error'\n` +
        'js: 1 passed, 1 failed, 0 unsupported\n',
    );
  });

  it('ends every case of a hostile file with a status, prints the summary and writes the report', () => {
    const huge = { length: 1_000_000_000 };
    const cases = caseFile('hostile.json', [
      {
        op: 'sparse_tensor_to_dense',
        name: 'array_like_values',
        args: { sp_input: { sparse: { indices: [], values: huge, dense_shape: [2] }, dtype: 'int32' } },
        expect_error: { kind: 'InvalidArgument' },
      },
      {
        op: 'from_dense',
        name: 'array_like_dense',
        args: { tensor: { dense: huge, dtype: 'int32' } },
        expect_error: { kind: 'InvalidArgument' },
      },
      { op: 'from_dense', name: 'array_like_plain', args: { tensor: huge }, expect_error: { kind: 'InvalidArgument' } },
      ordered,
    ]);
    const out = join(dir, 'hostile-report.json');
    const r = runCli(['--cases', cases, '--json', out, '--timeout-ms', '10000']);
    expect(r.stdout).toContain(`FAIL js sparse_tensor_to_dense/array_like_values: ${cases}: cases[0]`);
    const report = JSON.parse(readFileSync(out, 'utf8')) as CaseResult[];
    expect(report.map((x) => x.name)).toEqual([
      'array_like_values',
      'array_like_dense',
      'array_like_plain',
      'already_in_order',
    ]);
    for (const x of report) expect(STATUSES).toContain(x.status);
    expect(report.at(-1)!.status).toBe('passed');
    expect(summaryOf(r.stdout)).toHaveLength(1);
    expect(r.code).toBe(report.some((x) => x.status === 'failed') ? 1 : 0);
  });

  it('matches expect_error.match in linear time: a catastrophic pattern does not hang the run', () => {
    // A backtracking RegExp takes 2^50 steps for (a+)+$ against this message's run of 50 a's and the quote after.
    const cases = caseFile('catastrophic-regex.json', [
      {
        op: 'sparse_tensor_to_dense',
        name: 'catastrophic_match',
        args: { ['a'.repeat(50)]: 1 },
        expect_error: { kind: 'TypeError', match: '(a+)+$' },
      },
      ordered,
    ]);
    const r = runCli(['--cases', cases], { timeout: 20_000 });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(
      `FAIL js sparse_tensor_to_dense/catastrophic_match: expected a TypeError matching /(a+)+$/, got the message: sparse_tensor_to_dense: unknown argument '${'a'.repeat(50)}'`,
    );
    expect(summaryOf(r.stdout)).toEqual(['js: 1 passed, 1 failed, 0 unsupported']);
    expect(r.ms).toBeLessThan(10_000);
  });

  it('stops a case that does not end after --timeout-ms, and runs the next one', () => {
    // After a case on the same backend, so that it begins with no line of its own in the step log.
    const cases = caseFile('stuck.json', [ordered, onKernel('sparse_tensor_to_dense', 'never_returns')]);
    const out = join(dir, 'stuck-report.json');
    const r = runCli(['--cases', cases, '--backend', 'misbehaving,js', '--timeout-ms', '1000', '--json', out], {
      withBackends: true,
      timeout: 30_000,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('FAIL misbehaving sparse_tensor_to_dense/never_returns: timed out after 1000 ms\n');
    expect(summaryOf(r.stdout)).toEqual([
      'misbehaving: 1 passed, 1 failed, 0 unsupported',
      'js: 2 passed, 0 failed, 0 unsupported',
    ]);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveLength(4);
  });

  it('reports a case that runs out of memory as failed, and runs the next one', () => {
    const cases = caseFile('out-of-memory.json', [onKernel('sparse_reduce_sum', 'out_of_memory'), ordered]);
    // A small heap, so that it runs out soon.
    const r = runCli(['--cases', cases, '--backend', 'misbehaving'], {
      withBackends: true,
      nodeOptions: '--max-old-space-size=64',
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(
      'FAIL misbehaving sparse_reduce_sum/out_of_memory: the process running the case died (signal SIGABRT): ' +
        'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n',
    );
    expect(summaryOf(r.stdout)).toEqual(['misbehaving: 1 passed, 1 failed, 0 unsupported']);
  });

  it('fails every case of a backend that does not open within --timeout-ms, and runs the next backend', () => {
    const cases = caseFile('never-opens.json', [ordered]);
    const r = runCli(['--cases', cases, '--backend', 'never-opens,js', '--timeout-ms', '1000'], { withBackends: true });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(
      'FAIL never-opens sparse_reorder/already_in_order: backend never-opens did not open within 1000 ms\n',
    );
    expect(summaryOf(r.stdout)).toEqual([
      'never-opens: 0 passed, 1 failed, 0 unsupported',
      'js: 1 passed, 0 failed, 0 unsupported',
    ]);
  });
});

describe('sparse-conformance: starting and loading are time-limited too (--load-timeout-ms)', () => {
  /** Exit 2 within the time, nothing on stdout and no report (no case ran), `message` the one line on stderr. */
  function expectLoadFailure(r: ReturnType<typeof runCli>, message: string, report: string): void {
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`sparse-conformance: ${message}\n`);
    expect(existsSync(report)).toBe(false);
    expect(r.ms).toBeLessThan(20_000);
  }

  it.skipIf(process.platform === 'win32')('refuses a case file that would never finish loading, naming it', () => {
    // A named pipe no one writes to: reading it would wait forever, in the runner's one thread; it is not a
    // regular file, so it is refused before it is read, long before the limit.
    const cases = join(dir, 'never-written.yaml');
    execFileSync('mkfifo', [cases]);
    const out = join(dir, 'never-written-report.json');
    const r = runCli(['--cases', cases, '--json', out, '--load-timeout-ms', '60000'], { timeout: 30_000 });
    expectLoadFailure(r, `${cases}: not a regular file (a FIFO): refused`, out);
  });

  it('names the file of a folder whose parse never ends', () => {
    const folder = join(dir, 'pathological');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.json'), JSON.stringify([ordered]));
    writeFileSync(join(folder, 'b.json'), JSON.stringify([{ ...ordered, name: 'never-loads' }]));
    const out = join(dir, 'pathological-report.json');
    const r = runCli(['--cases', folder, '--json', out, '--load-timeout-ms', '1000'], {
      runner: 'hangs-parsing',
      timeout: 30_000,
    });
    expectLoadFailure(r, `${join(folder, 'b.json')}: did not load within 1000 ms (--load-timeout-ms)`, out);
  });

  it('ends a run whose process to run the cases never starts', () => {
    const out = join(dir, 'never-starts-report.json');
    const r = runCli(
      ['--cases', caseFile('never-starts.json', [ordered]), '--json', out, '--load-timeout-ms', '1000'],
      {
        runner: 'hangs-at-start-up',
        timeout: 30_000,
      },
    );
    expectLoadFailure(r, 'the process to run the cases did not start within 1000 ms (--load-timeout-ms)', out);
  });

  it('fails the cases left when a new process, after a case timed out, never starts; the report is written', () => {
    const cases = caseFile('then-never-starts.json', [onKernel('sparse_tensor_to_dense', 'never_returns'), ordered]);
    const out = join(dir, 'then-never-starts-report.json');
    const marker = join(dir, 'first-runner-started');
    const r = runCli(
      [
        '--cases',
        cases,
        '--backend',
        'misbehaving',
        '--timeout-ms',
        '1000',
        // Long enough for the first process to load on a busy machine; the second never does.
        '--load-timeout-ms',
        '5000',
        '--json',
        out,
      ],
      { withBackends: true, runner: `hangs-at-start-up-after:${marker}`, timeout: 30_000 },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe(
      'FAIL misbehaving sparse_tensor_to_dense/never_returns: timed out after 1000 ms\n' +
        'FAIL misbehaving sparse_reorder/already_in_order: a new process to run the cases could not load them: ' +
        'it did not start within 5000 ms (--load-timeout-ms)\n' +
        'misbehaving: 0 passed, 2 failed, 0 unsupported\n',
    );
    const report = JSON.parse(readFileSync(out, 'utf8')) as CaseResult[];
    expect(report.map((x) => [x.name, x.status])).toEqual([
      ['never_returns', 'failed'],
      ['already_in_order', 'failed'],
    ]);
  });
});
