import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

// The API reference (docs/api/index.md, and docs/api/@sparse/tfjs.md) is typedoc's rendering of the runtime's and
// @sparse/tfjs's JSDoc. It is built here into a
// temporary folder, with warnings as errors (a type the docs reference but do not export, a broken {@link}), and
// must equal the committed file: after changing the runtime's public surface or its comments, run `npm run docs:api`.

const ROOT = join(import.meta.dirname, '..');
const out = mkdtempSync(join(tmpdir(), 'sparse-api-docs-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('docs/api is what typedoc makes of the runtime and @sparse/tfjs now, without warnings', () => {
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typedoc/bin/typedoc'), '--out', out], {
    cwd: ROOT,
    stdio: 'pipe',
  });
  const fresh = readFileSync(join(out, 'index.md'), 'utf8');
  expect(fresh).toContain('### SparseTensor');
  expect(fresh).toContain('### createRuntime');
  expect(
    fresh === readFileSync(join(ROOT, 'docs/api/index.md'), 'utf8'),
    'docs/api/index.md is stale: run npm run docs:api',
  ).toBe(true);
  // The user API only: gradient ops are the runtime's, for vjp (tagged @internal by codegen), not in the reference.
  expect(fresh).toContain('##### tensorDenseMatmul()');
  expect(fresh).not.toContain('##### tensorDenseMatmulGrad()');
  expect(fresh).not.toMatch(/### \w+Grad(Options|Result)\b/);
  const tfjs = readFileSync(join(out, '@sparse/tfjs.md'), 'utf8');
  expect(tfjs).toContain('### sparseDenseMatmul');
  expect(tfjs).not.toContain('### sparseTensorDenseMatmulGrad');
  expect(
    tfjs === readFileSync(join(ROOT, 'docs/api/@sparse/tfjs.md'), 'utf8'),
    'docs/api/@sparse/tfjs.md is stale: run npm run docs:api',
  ).toBe(true);
}, 120_000);
