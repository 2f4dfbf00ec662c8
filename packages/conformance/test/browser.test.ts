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
// (packages/kernels-gpu/dist/browser/sparse-gpu.js, with gpu.js inside: WebGL2 on SwiftShader under these flags)
// and the WebGPU backend's (packages/kernels-webgpu/dist/browser/sparse-webgpu.js: navigator.gpu on SwiftShader's
// Vulkan), registered by the page as a user would. The page is served on 127.0.0.1 and loads nothing else but the
// conformance runner; it reports the results back to this test. The server serves only those files, so a bundle
// that reached for anything else (a module, gpu.js's own script, a wasm file elsewhere) fails the test.

const ROOT = join(import.meta.dirname, '../../..');
const BUNDLE_DIR = join(ROOT, 'packages/runtime/dist/browser');
const GPU_BUNDLE_DIR = join(ROOT, 'packages/kernels-gpu/dist/browser');
const WEBGPU_BUNDLE_DIR = join(ROOT, 'packages/kernels-webgpu/dist/browser');
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
  import { createRuntime, listBackends, registerBackend, SparseTensor, tensor } from '${BUNDLE_URL}';
  import { createGpuBackend } from '/vendor/sparse/sparse-gpu.js';
  import { createWebGpuBackend } from '/vendor/sparse/sparse-webgpu.js';
  import { runCase } from '/run-case.js';
  try {
    registerBackend('gpu', createGpuBackend);
    registerBackend('webgpu', createWebGpuBackend);
    const { cases } = await (await fetch('/cases.json')).json();
    const runAll = async (rt) => {
      const counts = { passed: 0, failed: 0, unsupported: 0, delegated: 0 };
      const failures = [];
      for (const c of cases) {
        const r = await runCase(rt, c);
        counts[r.status]++;
        if (r.status === 'failed' || r.status === 'unsupported') failures.push(c.op + '/' + c.name + ': ' + r.message);
      }
      return { counts, failures: failures.slice(0, 10), cases: cases.length };
    };
    const report = {};
    for (const backend of listBackends()) report[backend] = await runAll(await createRuntime({ backend }));
    // The wasm backend on three threads (the page is cross-origin isolated): every example, then a product big
    // enough to be cut between the threads, which must equal one thread's exactly.
    const threaded = await createRuntime({ backend: 'wasm', threads: 3 });
    const onThreads = await runAll(threaded);
    const one = await createRuntime({ backend: 'wasm' });
    const indices = [];
    for (let r = 0; r < 2000; r++) for (let k = 0; k < 20; k++) indices.push([r, (r * 37 + k * 101) % 2000]);
    const a = new SparseTensor(indices, new Float32Array(indices.length).map((_, i) => ((i * 7) % 13) - 6.5), [2000, 2000], 'float32');
    const b = tensor(new Float32Array(2000 * 32).map((_, i) => ((i * 5) % 11) / 4), 'float32', [2000, 32]);
    const [x, y] = [threaded, one].map((rt) => Array.from(rt.sparse.tensorDenseMatmul(a, b).dataSync()));
    const sameProduct = x.length === 64000 && x.every((v, i) => Object.is(v, y[i]));
    report['wasm-threads'] = { ...onThreads, threads: threaded.threads, sameProduct };
    window.__report = report;
  } catch (e) {
    window.__report = { error: String(e && e.stack || e) };
  }
</script>`;

// The same bundle in a page that is not cross-origin isolated: no shared memory, so one thread, and calls still run.
const PLAIN_PAGE = `<!doctype html>
<link rel="icon" href="data:,">
<script type="module">
  import { createRuntime, SparseTensor } from '${BUNDLE_URL}';
  try {
    const rt = await createRuntime({ backend: 'wasm', threads: 3 });
    const st = new SparseTensor([[0, 1]], [2], [2, 2], 'float32');
    window.__report = { threads: rt.threads, isolated: self.crossOriginIsolated, dense: rt.sparse.toDense(st).toArray() };
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

const ISOLATED = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

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
  expect(existsSync(join(WEBGPU_BUNDLE_DIR, 'sparse-webgpu.js')), `sparse-webgpu.js (npm run build)`).toBe(true);
  const runner = await bundleRunner();
  const files: Record<string, string> = {
    '/cases.json': join(ROOT, 'packages/conformance/generated/cases.json'),
    ...Object.fromEntries(
      [
        'sparse.js',
        'sparse.js.map',
        'kernels.wasm',
        'kernels-threads.wasm',
        'thread-worker.js',
        'thread-worker.js.map',
      ].map((f) => [`/vendor/sparse/${f}`, join(BUNDLE_DIR, f)]),
    ),
    ...Object.fromEntries(
      ['sparse-gpu.js', 'sparse-gpu.js.map'].map((f) => [`/vendor/sparse/${f}`, join(GPU_BUNDLE_DIR, f)]),
    ),
    ...Object.fromEntries(
      ['sparse-webgpu.js', 'sparse-webgpu.js.map'].map((f) => [`/vendor/sparse/${f}`, join(WEBGPU_BUNDLE_DIR, f)]),
    ),
  };
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requested.push(path);
    if (path === '/plain') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PLAIN_PAGE);
    // Everything else cross-origin isolated (COOP and COEP), as a page must be for shared memory and threads.
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html', ...ISOLATED }).end(PAGE);
    if (path === '/run-case.js')
      return void res.writeHead(200, { 'content-type': 'text/javascript', ...ISOLATED }).end(runner);
    const file = files[path];
    if (!file || !existsSync(file)) {
      refused.push(path);
      return void res.writeHead(404).end();
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/json', ...ISOLATED });
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

it('the browser bundles run every spec example in headless Chromium on the js, wasm, gpu and webgpu backends', async () => {
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
    // Every backend the runtime knows (in Node: the same list) ran in the page, and wasm on threads.
    expect(Object.keys(report).sort()).toEqual([...listBackends(), 'wasm-threads'].sort());
    expect(requested).toContain('/vendor/sparse/kernels-threads.wasm');
    expect(requested).toContain('/vendor/sparse/thread-worker.js');
    const threaded = report['wasm-threads'] as { threads: number; sameProduct: boolean };
    expect(threaded.threads).toBe(3);
    expect(threaded.sameProduct).toBe(true);
    for (const backend of [...listBackends(), 'wasm-threads']) {
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

it('a page that is not cross-origin isolated runs the wasm backend on one thread', async () => {
  const browser = await launchChromium(profile);
  try {
    const page = await browser.newPage();
    await page.goto(origin + '/plain');
    await page.waitForFunction(() => (window as unknown as { __report?: unknown }).__report !== undefined, undefined, {
      timeout: 60_000,
    });
    const report = await page.evaluate(() => (window as unknown as { __report: Record<string, unknown> }).__report);
    expect(report).toEqual({
      threads: 1,
      isolated: false,
      dense: [
        [0, 2],
        [0, 0],
      ],
    });
  } finally {
    await browser.close();
  }
}, 120_000);
