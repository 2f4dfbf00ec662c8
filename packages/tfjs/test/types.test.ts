import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

// `tsc --strict` on a consumer of the generated functions (fixtures/consumer.ts): their results are typed (a
// tf.Tensor2D from sparseDenseMatmul, a TfSparseTensor, a record of several outputs), and a wrong type, a
// snake_case option or an option the op has not are type errors (`@ts-expect-error` fails the check if not).

const ROOT = join(import.meta.dirname, '../../..');

it('a strict consumer type-checks, its results typed', () => {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const fixture = join(import.meta.dirname, 'fixtures/consumer.ts');
  const flags = [
    '--noEmit',
    '--strict',
    '--target',
    'es2022',
    '--lib',
    'es2022',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
  ];
  let out = '';
  try {
    execFileSync(process.execPath, [tsc, ...flags, '--skipLibCheck', '--types', 'node', fixture], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } catch (e) {
    out = String((e as { stdout?: Buffer }).stdout ?? e);
  }
  expect(out).toBe('');
}, 60_000);
