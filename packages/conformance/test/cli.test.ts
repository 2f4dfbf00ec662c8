import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The CLI as installed: the built dist (run `npx tsc -p packages/conformance/tsconfig.json` first).
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sparse-conformance-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runCli(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

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

describe('sparse-conformance', () => {
  beforeAll(() => {
    expect(existsSync(cli), `${cli} is missing: build the package first`).toBe(true);
  });

  it('reports a failing case, writes the JSON report and exits 1', () => {
    const cases = join(dir, 'with-failure.yaml');
    const out = join(dir, 'report.json');
    writeFileSync(cases, passing + errorExpecting + unknownOp + failing);
    const r = runCli('--cases', cases, '--json', out);
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
    const cases = join(dir, 'no-failure.json');
    const yamlFree = [
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
    ];
    writeFileSync(cases, JSON.stringify({ cases: yamlFree }));
    const r = runCli('--cases', cases);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual(['js: 1 passed, 0 failed, 1 unsupported']);
  });

  it('reports a backend it cannot create as unsupported, one summary line per backend', () => {
    const cases = join(dir, 'one.yaml');
    writeFileSync(cases, passing);
    const r = runCli('--cases', cases, '--backend', 'js,no_such_backend');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      'js: 1 passed, 0 failed, 0 unsupported',
      'no_such_backend: 0 passed, 0 failed, 1 unsupported',
    ]);
  });

  it('exits 2 with the usage for a missing --cases or an unknown option', () => {
    for (const args of [[], ['--case', 'x.yaml']]) {
      const r = runCli(...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('usage: sparse-conformance --cases');
    }
  });

  it('reports a malformed case as failed with its reason, and runs the good one', () => {
    const cases = join(dir, 'one-malformed.yaml');
    writeFileSync(cases, '- op: x\n  name: broken\n  args: {}\n' + passing);
    const r = runCli('--cases', cases);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe(
      `FAIL js x/broken: ${cases}: cases[0] (broken): a case has exactly one of 'expect' and 'expect_error'\n` +
        'js: 1 passed, 1 failed, 0 unsupported\n',
    );
  });
});
