import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';

// The runtime with its js, wasm and gpu backends (gpu.js on WebGL2: SwiftShader under these flags), loaded as ES
// modules by headless Chromium from a page served on 127.0.0.1, runs every spec example there; the page reports the
// results back to this test.

const ROOT = join(import.meta.dirname, '../../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm', '.html': 'text/html' };

// gpu.js in the browser: its browser build sets the global GPU; a small ES module re-exports it as 'gpu.js'.
const GPU_SHIM = 'const GPU = globalThis.GPU.GPU ?? globalThis.GPU;\nexport { GPU };\nexport default { GPU };\n';

const PAGE = `<!doctype html>
<script src="/node_modules/gpu.js/dist/gpu-browser.min.js"></script>
<script type="importmap">
{ "imports": {
  "@sparse/runtime": "/packages/runtime/dist/index.js",
  "@sparse/kernels-js": "/packages/kernels-js/dist/index.js",
  "@sparse/kernels-js/internals": "/packages/kernels-js/dist/internals.js",
  "@sparse/kernels-as": "/packages/kernels-as/dist/index.js",
  "@sparse/kernels-gpu": "/packages/kernels-gpu/dist/index.js",
  "gpu.js": "/gpu.js-shim.js"
} }
</script>
<script type="module">
  import { createRuntime } from '@sparse/runtime';
  import { runCase } from '/packages/conformance/dist/run-case.js';
  try {
    const { cases } = await (await fetch('/packages/conformance/generated/cases.json')).json();
    const report = {};
    for (const backend of ['js', 'wasm', 'gpu']) {
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

let server: Server;
let origin = '';
const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (path === '/gpu.js-shim.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(GPU_SHIM);
    const file = normalize(join(ROOT, path));
    if (!file.startsWith(ROOT) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
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

it('every spec example passes in headless Chromium on the js, wasm and gpu backends', async () => {
  expect(existsSync(CHROMIUM), `Chromium at ${CHROMIUM} (apt-get install chromium)`).toBe(true);
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(origin + '/');
    await page.waitForFunction(() => (window as unknown as { __report?: unknown }).__report !== undefined, undefined, { timeout: 120_000 });
    const report = await page.evaluate(() => (window as unknown as { __report: Record<string, unknown> }).__report);
    expect(errors).toEqual([]);
    expect(report.error).toBeUndefined();
    for (const backend of ['js', 'wasm', 'gpu']) {
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
