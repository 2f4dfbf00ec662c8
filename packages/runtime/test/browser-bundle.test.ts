import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import * as main from '@sparse/runtime';

// The browser bundle (dist/browser, built by scripts/bundle.mjs) loaded outside a browser: the same exports as the
// main entry, and the js backend runs. Its wasm backend fetches kernels.wasm from beside the bundle, which a
// browser does (packages/conformance/test/browser.test.ts runs every spec example in Chromium); Node's fetch
// cannot read files, so here it fails, and the error says where it looked: beside the bundle, wherever copied.

const BUNDLE_DIR = join(import.meta.dirname, '../dist/browser');
const moved = mkdtempSync(join(tmpdir(), 'sparse-bundle-'));
afterAll(() => rmSync(moved, { recursive: true, force: true }));

it('exports what the main entry exports, runs on js, and looks for its wasm beside itself wherever it is copied', async () => {
  for (const f of ['sparse.js', 'kernels.wasm'])
    expect(existsSync(join(BUNDLE_DIR, f)), `${f} in ${BUNDLE_DIR} (npm run build)`).toBe(true);
  cpSync(BUNDLE_DIR, join(moved, 'vendor'), { recursive: true });
  const bundle = (await import(pathToFileURL(join(moved, 'vendor/sparse.js')).href)) as typeof main;
  expect(Object.keys(bundle).sort()).toEqual(Object.keys(main).sort());
  const rt = await bundle.createRuntime({ backend: 'js' });
  const st = new bundle.SparseTensor(
    [
      [0, 0],
      [1, 2],
    ],
    [1, 2],
    [2, 3],
    'float32',
  );
  expect(rt.sparse.tensorDenseMatmul(st, bundle.tensor([[1], [2], [3]], 'float32')).toArray()).toEqual([[1], [6]]);
  const beside = pathToFileURL(join(moved, 'vendor/kernels.wasm')).href;
  await expect(bundle.createRuntime({ backend: 'wasm' })).rejects.toThrow(
    `cannot load the wasm kernels from ${beside}`,
  );
});
