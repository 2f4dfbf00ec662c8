import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The holes through which sparse-conformance could pass a CI gate with nothing run, or take the machine down
// loading or running a small file (issue 27), each run through the built command in a child process.

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const misbehavingBackends = new URL('./fixtures/misbehaving-backends.mjs', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'sparse-conformance-gate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  expect(existsSync(cli), `${cli} is missing: build the package first`).toBe(true);
});

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The peak resident memory of the command and the process it ran the cases in, in bytes, when measured. */
  peakRss?: number;
}

/**
 * Runs the command, asynchronously so that the tests of this file run side by side; killed past `timeout`, long
 * enough to tell a hang from a slow machine. `measure` runs it under GNU time, whose peak resident size covers the
 * process that ran the cases too (the command waits for it, so its usage counts towards the command's).
 */
function runCli(args: string[], { withBackends = false, measure = false, timeout = 60_000 } = {}): Promise<Run> {
  const env = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${withBackends ? `--import=${misbehavingBackends}` : ''}`,
  };
  const rssFile = join(dir, `rss-${Math.random().toString(36).slice(2)}`);
  const [command, commandArgs] = measure
    ? [TIME!, ['-f', '%M', '-o', rssFile, process.execPath, cli, ...args]]
    : [process.execPath, [cli, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { env, timeout, killSignal: 'SIGKILL' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const peakRss = measure ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) * 1024 : undefined;
      resolve({ code, stdout, stderr, peakRss });
    });
  });
}

/** Writes a case file (text, or JSON of a value) under the test folder; its path. */
function write(name: string, content: string | unknown[]): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** Each test runs one or two commands, each with its process to run the cases, beside the file's other tests. */
const SIDE_BY_SIDE = { timeout: 120_000 };

/** Exit 2 with `message` the one line on stderr, and no case run (no summary on stdout). */
function expectRefused(r: Run, message: string | RegExp): void {
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  if (typeof message === 'string') expect(r.stderr).toBe(`sparse-conformance: ${message}\n`);
  else expect(r.stderr).toMatch(message);
}

const toDense = (name: string, denseShape: number[], dtype: string, expectation: object) => ({
  op: 'sparse_tensor_to_dense',
  name,
  args: { sp_input: { sparse: { indices: [[0, 1]], values: [7], dense_shape: denseShape }, dtype } },
  ...expectation,
});
const failing = toDense('wrong_expectation', [2, 2], 'int32', {
  expect: {
    output: {
      dense: [
        [0, 8],
        [0, 0],
      ],
      dtype: 'int32',
    },
  },
});
const passing = toDense('right', [2, 2], 'int32', {
  expect: {
    output: {
      dense: [
        [0, 7],
        [0, 0],
      ],
      dtype: 'int32',
    },
  },
});

describe.concurrent('sparse-conformance: symbolic links are followed, or refused by name', SIDE_BY_SIDE, () => {
  it('runs a failing case file, and a folder, that a folder holds only as links, and exits 1', async () => {
    const target = write('links/target/failing.json', [failing]);
    write('links/folder/right.json', [passing]);
    mkdirSync(join(dir, 'links/only-links'));
    symlinkSync(target, join(dir, 'links/only-links/failing.json'));
    symlinkSync(join(dir, 'links/folder'), join(dir, 'links/only-links/folder'));
    const r = await runCli(['--cases', join(dir, 'links/only-links')]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe(
      'FAIL js sparse_tensor_to_dense/wrong_expectation: output[0][1]: got 7, want 8\n' +
        'js: 1 passed, 1 failed, 0 unsupported\n',
    );
  });

  it('refuses a link to nothing, naming it, rather than leave it out', async () => {
    write('dangling/right.json', [passing]);
    const link = join(dir, 'dangling/gone.yaml');
    symlinkSync(join(dir, 'dangling/no-such-file.yaml'), link);
    expectRefused(
      await runCli(['--cases', join(dir, 'dangling')]),
      new RegExp(`^sparse-conformance: ${link}: cannot read: ENOENT`),
    );
  });
});

describe.concurrent('sparse-conformance: no case run is a failure, unless --allow-empty', SIDE_BY_SIDE, () => {
  const allow = '(--allow-empty accepts that)';

  it('exits 2 for an empty folder, and for an empty list, saying nothing ran', async () => {
    mkdirSync(join(dir, 'empty'));
    const emptyList = write('empty-list.yaml', '[]\n');
    const [folder, list] = await Promise.all([runCli(['--cases', join(dir, 'empty')]), runCli(['--cases', emptyList])]);
    expectRefused(folder, `${join(dir, 'empty')}: no case to run: no case file there ${allow}`);
    expectRefused(list, `${emptyList}: no case to run: its list of cases is empty ${allow}`);
  });

  it('exits 2 when every case is unsupported on every backend, after the summary and the report', async () => {
    const cases = write('all-unsupported.json', [passing]);
    const out = join(dir, 'all-unsupported-report.json');
    const r = await runCli(['--cases', cases, '--backend', 'unavailable', '--json', out], { withBackends: true });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('unavailable: 0 passed, 0 failed, 1 unsupported\n');
    expect(r.stderr).toBe(
      'sparse-conformance: no case ran: every case was unsupported on unavailable (--verbose says why; ' +
        `--allow-empty accepts that)\n`,
    );
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveLength(1);
  });

  it('exits 0 for both with --allow-empty, printing the summary and writing the report', async () => {
    const out = join(dir, 'allowed-empty-report.json');
    const [empty, unsupported] = await Promise.all([
      runCli(['--cases', write('allowed-empty.json', []), '--allow-empty', '--json', out]),
      runCli(['--cases', write('allowed-unsupported.json', [passing]), '--backend', 'unavailable', '--allow-empty'], {
        withBackends: true,
      }),
    ]);
    expect(empty.stdout + empty.stderr).toBe('js: 0 passed, 0 failed, 0 unsupported\n');
    expect(empty.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual([]);
    expect(unsupported.stdout + unsupported.stderr).toBe('unavailable: 0 passed, 0 failed, 1 unsupported\n');
    expect(unsupported.code).toBe(0);
  });
});

describe.concurrent('sparse-conformance: what it loads is bounded', SIDE_BY_SIDE, () => {
  const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  const limit = 'a case file may nest lists and maps at most 300 deep';

  it('refuses a 16 KB case nested 4,000 deep, in JSON or YAML, naming the file and the depth', async () => {
    const deep = {
      json: `[{"op": "sparse_tensor_to_dense", "name": "deep", "args": {"sp_input": ${nested(4000)}}, "expect_error": {"kind": "TypeError"}}]`,
      yaml: `- op: sparse_tensor_to_dense\n  name: deep\n  args: {sp_input: ${nested(4000)}}\n  expect_error: {kind: TypeError}\n`,
    };
    for (const format of ['json', 'yaml'] as const) {
      write(`deep-${format}/a-good.json`, [passing]);
      write(`deep-${format}/b-deep.${format}`, deep[format]);
    }
    const [json, yaml] = await Promise.all([
      runCli(['--cases', join(dir, 'deep-json')]),
      runCli(['--cases', join(dir, 'deep-yaml')]),
    ]);
    // The 4,000 and three above: the list of cases, the case, its args; the place, the 4,000th bracket.
    const json4000 = deep.json.indexOf('[[') + 4000;
    const yaml4000 = deep.yaml.split('\n')[2].indexOf('[') + 4000;
    expectRefused(
      json,
      `${join(dir, 'deep-json/b-deep.json')}: nested 4003 deep (line 1, column ${json4000}); ${limit}`,
    );
    expectRefused(
      yaml,
      `${join(dir, 'deep-yaml/b-deep.yaml')}: nested 4003 deep (line 3, column ${yaml4000}); ${limit}`,
    );
  });

  it.skipIf(process.platform === 'win32')('refuses /dev/zero at once, and a file past --max-file-bytes', async () => {
    const zero = join(dir, 'zero.yaml');
    symlinkSync('/dev/zero', zero);
    const big = write('big.json', [passing, { ...passing, name: 'padded', padding: ' '.repeat(2000) }]);
    // A long load limit: the refusal, not the limit, must end it.
    const [zeroRun, bigRun] = await Promise.all([
      runCli(['--cases', zero, '--load-timeout-ms', '600000'], { measure: TIME !== undefined }),
      runCli(['--cases', big, '--max-file-bytes', '1KiB']),
    ]);
    expectRefused(zeroRun, `${zero}: not a regular file (a character device): refused`);
    if (zeroRun.peakRss !== undefined) expect(zeroRun.peakRss).toBeLessThan(512 * 2 ** 20);
    const size = readFileSync(big).length;
    expectRefused(bigRun, `${big}: holds ${size} bytes; a case file may hold at most 1024 bytes (--max-file-bytes)`);
  });
});

describe.concurrent('sparse-conformance: each backend runs within a byte budget (--max-bytes)', SIDE_BY_SIDE, () => {
  it('fails a 600-byte case whose output would take 3 GB, within a small peak, and runs the next', async () => {
    const huge = toDense('huge', [20000, 20000], 'float64', { expect: { output: { dense: [[0]], dtype: 'float64' } } });
    const r = await runCli(['--cases', write('huge.json', [huge, passing])], { measure: TIME !== undefined });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(
      /^FAIL js sparse_tensor_to_dense\/huge: threw ResourceExhaustedError: sparse_tensor_to_dense: output \(dense shape \[20000,20000\]\) would take 3\.0 GiB, more than this runtime's budget of /,
    );
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('js: 1 passed, 1 failed, 0 unsupported');
    if (r.peakRss !== undefined) expect(r.peakRss).toBeLessThan(512 * 2 ** 20);
  });

  it.skipIf(TIME === undefined)(
    'passes it to the runtime: a 128 MiB output refused under it, made over it',
    async () => {
      // Filled with 1.5, so that every page of the output is touched. Expecting the refusal, the case passes where
      // it is refused and fails where the output is made.
      const filled = {
        ...toDense('128MiB', [4096, 4096], 'float64', { expect_error: { kind: 'ResourceExhausted', match: 'budget' } }),
      };
      filled.args = { ...filled.args, default_value: 1.5 } as typeof filled.args;
      const cases = write('budget.json', [filled]);
      const [under, over] = await Promise.all([
        runCli(['--cases', cases, '--max-bytes', '64MiB'], { measure: true }),
        runCli(['--cases', cases, '--max-bytes', '256MiB'], { measure: true }),
      ]);
      expect(under.stdout + under.stderr).toBe('js: 1 passed, 0 failed, 0 unsupported\n');
      expect(over.code, over.stderr).toBe(1);
      expect(over.stdout).toContain('but the op returned normally');
      // The measure sees the process that ran the case: the 128 MiB made there, and not made under the budget.
      expect(over.peakRss! - under.peakRss!).toBeGreaterThan(100 * 2 ** 20);
    },
  );
});
