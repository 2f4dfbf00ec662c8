import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import * as main from '@sparse/runtime';

// The browser bundle (dist/browser, built by scripts/bundle.mjs) outside a browser: the same exports as the main
// entry, and, copied to a folder of another name, its wasm backend still finds kernels.wasm beside it. (Chromium
// runs every spec example on it in packages/conformance/test/browser.test.ts.)

const BUNDLE_DIR = join(import.meta.dirname, '../dist/browser');
const moved = mkdtempSync(join(tmpdir(), 'sparse-bundle-'));
afterAll(() => rmSync(moved, { recursive: true, force: true }));

it('exports what the main entry exports, and finds its wasm beside itself wherever it is copied', async () => {
  for (const f of ['sparse.js', 'kernels.wasm']) expect(existsSync(join(BUNDLE_DIR, f)), `${f} in ${BUNDLE_DIR} (npm run build)`).toBe(true);
  cpSync(BUNDLE_DIR, join(moved, 'vendor'), { recursive: true });
  const bundle = (await import(pathToFileURL(join(moved, 'vendor/sparse.js')).href)) as typeof main;
  expect(Object.keys(bundle).sort()).toEqual(Object.keys(main).sort());
  for (const backend of ['js', 'wasm']) {
    const rt = await bundle.createRuntime({ backend });
    const st = new bundle.SparseTensor([[0, 0], [1, 2]], [1, 2], [2, 3], 'float32');
    const out = rt.sparse.tensorDenseMatmul(st, bundle.tensor([[1], [2], [3]], 'float32'));
    expect(out.toArray(), backend).toEqual([[1], [6]]);
  }
  // Without the kernels beside it, the wasm backend says where it looked.
  rmSync(join(moved, 'vendor/kernels.wasm'));
  await expect(bundle.createRuntime({ backend: 'wasm' })).rejects.toThrow(/vendor[\\/]kernels\.wasm/);
});
