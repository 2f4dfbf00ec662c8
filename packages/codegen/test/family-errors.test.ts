import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadSpecs, SpecError } from '../src/index.js';

const SPECS = join(import.meta.dirname, '../../../specs');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The problems codegen reports for a real spec after `edit`. */
function problems(file: string, edit: (yaml: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'family-'));
  dirs.push(dir);
  const yaml = readFileSync(join(SPECS, file), 'utf8');
  const edited = edit(yaml);
  expect(edited).not.toBe(yaml);
  writeFileSync(join(dir, file), edited);
  try {
    loadSpecs(dir, dir);
  } catch (e) {
    expect(e).toBeInstanceOf(SpecError);
    return (e as SpecError).message;
  }
  throw new Error('accepted');
}

it('an unknown variable, with the field, the line and the column', () => {
  expect(problems('sparse_dense_cwise_mul.yaml', (y) => y.replace('expr: a * b', 'expr: a * c'))).toMatch(
    /sparse_dense_cwise_mul\.yaml:\d+: kernel\.expr: unknown variable 'c' \(variables here: a, b\) \(at column 5 of "a \* c"\)/,
  );
});

it('a syntax error and an unknown function', () => {
  expect(problems('sparse_maximum.yaml', (y) => y.replace('expr: max(a, b)', 'expr: max(a, b'))).toMatch(
    /kernel\.expr: expected '\)'/,
  );
  expect(problems('sparse_abs.yaml', (y) => y.replace('expr: abs(x)', 'expr: fabs(x)'))).toMatch(
    /kernel\.expr: unknown function 'fabs'/,
  );
});

it('a function a declared dtype cannot take', () => {
  expect(
    problems('sparse_sqrt.yaml', (y) => y.replace('T: [float32, float64]', 'T: [float32, float64, int32]')),
  ).toMatch(/kernel\.expr: sqrt is defined for float32 and float64, not int32/);
});

it('a map that does not keep zeros', () => {
  expect(problems('sparse_abs.yaml', (y) => y.replace('expr: abs(x)', 'expr: abs(x) + 1'))).toMatch(
    /kernel\.expr: a map must keep zeros absent, but f\(0\) != 0 for float32/,
  );
});

it('fields the family does not have, or lacks', () => {
  expect(
    problems('sparse_reorder.yaml', (y) => y.replace('family: structural', 'family: structural\n  expr: x')),
  ).toMatch(/kernel\.expr: a structural kernel is hand-written and takes no expr/);
  expect(problems('sparse_maximum.yaml', (y) => y.replace('  join: union\n', ''))).toMatch(/a merge kernel needs join/);
  expect(problems('sparse_reduce_sum.yaml', (y) => y.replace('  combine: acc + x\n', ''))).toMatch(
    /a reduce kernel needs combine/,
  );
  expect(problems('sparse_abs.yaml', (y) => y.replace('  expr: abs(x)\n', '  expr: abs(x)\n  join: union\n'))).toMatch(
    /a map kernel takes no join/,
  );
});

it('a condition where a value is due', () => {
  expect(problems('sparse_add.yaml', (y) => y.replace('keep: thresh <= abs(out)', 'keep: abs(out)'))).toMatch(
    /kernel\.keep: expected a condition, got a value/,
  );
});
