import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadSpecs } from '../src/index.js';

const ROOT = join(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'new-op-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const newOp = (...args: string[]) =>
  execFileSync(process.execPath, [join(ROOT, 'tools/new-op.mjs'), ...args, '--specs', dir], {
    encoding: 'utf8',
    stdio: 'pipe',
  });

it.each(['map', 'cwise', 'merge', 'reduce', 'structural', 'matmul'])(
  'the %s scaffold is a valid spec with every field',
  (family) => {
    newOp(`sparse_scaffold_${family}`, '--family', family);
    const spec = loadSpecs(dir, dir).find((s) => s.name === `sparse_scaffold_${family}`)!;
    expect(spec.kernel.family).toBe(family);
    for (const field of ['summary', 'doc', 'dtypes', 'args', 'outputs', 'examples'] as const)
      expect(spec[field]).toBeTruthy();
    expect(spec.examples[0].expect).toBeTruthy();
    expect(Boolean(spec.compiled)).toBe(!['structural', 'matmul'].includes(family));
  },
);

it('refuses a bad op id and an existing file', () => {
  expect(() => newOp('Bad-Name')).toThrow();
  newOp('sparse_once');
  expect(() => newOp('sparse_once')).toThrow(/exists already/);
});
