import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { build } from 'esbuild';
import { launchChromium } from '@sparse/test-kit/chromium';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listBackends } from '@sparse/runtime';

// The browser bundles run every spec example in headless Chromium: the runtime's (packages/runtime/dist/browser:
// sparse.js, one ES module with the js and wasm backends, and the kernels.wasm beside it) and the GPU backend's
// (packages/kernels-gpu/dist/browser/sparse-gpu.js, with gpu.js inside: WebGL2 on SwiftShader under these flags),
// registered by the page as a user would. The page is served on 127.0.0.1 and loads nothing else but the
// conformance runner; it reports the results back to this test. The server serves only those files, so a bundle
// that reached for anything else (a module, gpu.js's own script, a wasm file elsewhere) fails the test.

const ROOT = join(import.meta.dirname, '../../..');
const BUNDLE_DIR = join(ROOT, 'packages/runtime/dist/browser');
const GPU_BUNDLE_DIR = join(ROOT, 'packages/kernels-gpu/dist/browser');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
};
// Served from a folder of another name than the one it is built in: the bundle finds its wasm relative to itself.
const BUNDLE_URL = '/vendor/sparse/sparse.js';

const PAGE = `<!doctype html>
<link rel="icon" href="data:,">
<script type="module">
  import { createRuntime, listBackends, registerBackend } from '${BUNDLE_URL}';
  import { createGpuBackend } from '/vendor/sparse/sparse-gpu.js';
  import { runCase } from '/run-case.js';
  try {
    registerBackend('gpu', createGpuBackend);
    const { cases } = await (await fetch('/cases.json')).json();
    const report = {};
    for (const backend of listBackends()) {
      const rt = await createRuntime({ backend });
      const counts = { passed: 0, failed: 0, unsupported: 0, delegated: 0 };
      const failures = [];
      for (const c of cases) {
        const r = await runCase(rt, c);
        counts[r.status]++;
        if (r.status === 'failed' || r.status === 'unsupported') failures.push(c.op + '/' + c.name + ': ' + r.message);
      }
      report[backend] = { counts, failures: failures.slice(0, 10), cases: cases.length };
    }
    window.__report = report;
  } catch (e) {
    window.__report = { error: String(e && e.stack || e) };
  }
</script>`;

/** The conformance runner as one module whose '@sparse/runtime' is the bundle, by URL (so one runtime instance). */
async function bundleRunner(): Promise<string> {
  const result = await build({
    entryPoints: [join(ROOT, 'packages/conformance/dist/run-case.js')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
    plugins: [
      {
        name: 'runtime-is-the-bundle',
        setup: (b) => b.onResolve({ filter: /^@sparse\/runtime$/ }, () => ({ path: BUNDLE_URL, external: true })),
      },
    ],
  });
  return result.outputFiles[0].text;
}

let server: Server;
let origin = '';
const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));

const requested: string[] = [];
const refused: string[] = [];

beforeAll(async () => {
  for (const f of ['sparse.js', 'kernels.wasm'])
    expect(existsSync(join(BUNDLE_DIR, f)), `${f} in ${BUNDLE_DIR} (npm run build)`).toBe(true);
  expect(existsSync(join(GPU_BUNDLE_DIR, 'sparse-gpu.js')), `sparse-gpu.js in ${GPU_BUNDLE_DIR} (npm run build)`).toBe(
    true,
  );
  const runner = await bundleRunner();
  const files: Record<string, string> = {
    '/cases.json': join(ROOT, 'packages/conformance/generated/cases.json'),
    ...Object.fromEntries(
      ['sparse.js', 'sparse.js.map', 'kernels.wasm'].map((f) => [`/vendor/sparse/${f}`, join(BUNDLE_DIR, f)]),
    ),
    ...Object.fromEntries(
      ['sparse-gpu.js', 'sparse-gpu.js.map'].map((f) => [`/vendor/sparse/${f}`, join(GPU_BUNDLE_DIR, f)]),
    ),
  };
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requested.push(path);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (path === '/run-case.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(runner);
    const file = files[path];
    if (!file || !existsSync(file)) {
      refused.push(path);
      return void res.writeHead(404).end();
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/json' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(() => {
  server?.close();
  rmSync(profile, { recursive: true, force: true });
});

it('the browser bundles run every spec example in headless Chromium on the js, wasm and gpu backends', async () => {
  expect(existsSync(CHROMIUM), `Chromium at ${CHROMIUM} (apt-get install chromium)`).toBe(true);
  const browser = await launchChromium(profile);
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(origin + '/');
    await page.waitForFunction(() => (window as unknown as { __report?: unknown }).__report !== undefined, undefined, {
      timeout: 120_000,
    });
    const report = await page.evaluate(() => (window as unknown as { __report: Record<string, unknown> }).__report);
    expect(errors).toEqual([]);
    expect(report.error).toBeUndefined();
    // The page asked for nothing the bundle does not bring, and the wasm backend fetched the kernels beside it.
    expect(refused).toEqual([]);
    expect(requested).toContain('/vendor/sparse/kernels.wasm');
    // Every backend the runtime knows (in Node: the same list) ran in the page.
    expect(Object.keys(report).sort()).toEqual(listBackends().sort());
    for (const backend of listBackends()) {
      const r = report[backend] as { counts: Record<string, number>; failures: string[]; cases: number };
      expect(r.failures, `${backend} in Chromium`).toEqual([]);
      expect(r.counts.failed + r.counts.unsupported).toBe(0);
      expect(r.counts.passed + r.counts.delegated).toBe(r.cases);
      if (backend === 'js') expect(r.counts.passed).toBe(r.cases);
      else expect(r.counts.passed).toBeGreaterThan(0);
    }
  } finally {
    await browser.close();
  }
}, 180_000);
