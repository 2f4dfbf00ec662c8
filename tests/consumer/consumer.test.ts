import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium, type Chromium } from '@sparse/test-kit/chromium';
import { withoutColours } from '@sparse/test-kit/terminal-text';
import { afterAll, describe, expect, it } from 'vitest';

// What a user does with our packages, from this checkout: publish (dry run) and pack each one, install the
// runtime's tarballs into fresh apps outside the workspace, type-check a strict TypeScript consumer, run it in
// Node (ES modules and CommonJS) and bundle a page with Vite, webpack and esbuild that runs in headless Chromium;
// then the same with the webgpu backend installed beside it (Dawn in Node, navigator.gpu in Chromium).
// The app's tools are the devDependencies of app/package.json, installed from the registry like a user's.

const ROOT = join(import.meta.dirname, '../..');
const APP = join(import.meta.dirname, 'app');
const work = mkdtempSync(join(tmpdir(), 'sparse-consumer-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 60_000);

interface Manifest {
  name: string;
  private?: boolean;
  scripts?: Record<string, string>;
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: unknown;
  imports?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  [key: string]: unknown;
}

const rootManifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
const REPO_URL = (rootManifest.repository as { url: string }).url;
/** The published workspace packages (the root's workspaces are packages/*). */
const PACKAGES = readdirSync(join(ROOT, 'packages'))
  .map((name) => `packages/${name}`)
  .filter((dir) => existsSync(join(ROOT, dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest }))
  .filter((p) => !p.manifest.private);
/** TF.js as an app that uses @sparse/tfjs installs it (its core, the peer, comes with it). */
const TFJS = ['@tensorflow/tfjs@4.22.0'];
/** What `npm install @sparse/runtime` brings: the runtime and its dependencies, not the GPU backend. */
const RUNTIME_CLOSURE = ['@sparse/runtime', '@sparse/kernels-as', '@sparse/kernels-js', '@sparse/kernel-abi'];

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
    env: { ...process.env, NO_COLOR: '1' },
  });
const npm = (args: string[], cwd: string) => run('npm', args, cwd);
const node = (args: string[], cwd: string) => run(process.execPath, args, cwd);
const log = (line: string) => console.log(`consumer: ${line}`);

/** Every file path a package.json field points at (exports and imports maps walked through their conditions). */
function targetsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(targetsOf);
  return [];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** npm's --json output, after whatever the package's prepack printed on the same stdout. */
function jsonTail(out: string, start: string): string {
  const at = out.indexOf(start);
  if (at < 0) throw new Error(`no JSON starting with ${JSON.stringify(start)} in npm's output:\n${out.slice(-2000)}`);
  return out.slice(at);
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

describe('a user of the published packages', () => {
  const tarballs = new Map<string, string>();

  it('publishes every package complete: entry points, types, README and LICENSE, nothing else (npm publish --dry-run)', () => {
    expect(PACKAGES.map((p) => p.manifest.name).sort()).toEqual([
      '@sparse/case-format',
      '@sparse/conformance',
      '@sparse/kernel-abi',
      '@sparse/kernels-as',
      '@sparse/kernels-gpu',
      '@sparse/kernels-js',
      '@sparse/kernels-webgpu',
      '@sparse/runtime',
      '@sparse/tfjs',
    ]);
    for (const { dir, manifest: m } of PACKAGES) {
      // Publishing runs prepack, which builds the package. Here the packages are built (npm test builds first),
      // and a rebuild would swap dist/ under the test files reading it beside this one: scripts are skipped, and
      // prepack is held to building its own package.
      expect(m.scripts?.prepack, `${m.name}: prepack`).toBe(`nx run ${m.name}:build --outputStyle=static`);
      const out = npm(['publish', '--dry-run', '--ignore-scripts', '--json', '-w', dir], ROOT);
      const report = JSON.parse(jsonTail(out, `{\n  "${m.name}": {`))[m.name] as {
        files: { path: string }[];
        size: number;
      };
      const files = new Set(report.files.map((f) => f.path));
      const entryPoints = [m.main, m.types, ...targetsOf(m.bin), ...targetsOf(m.exports), ...targetsOf(m.imports)]
        .filter((t): t is string => t !== undefined)
        .map((t) => t.replace(/^\.\//, ''));
      for (const f of new Set([...entryPoints, 'package.json', 'README.md', 'LICENSE']))
        expect(files.has(f), `${m.name} ships ${f}`).toBe(true);
      for (const f of files)
        expect(f, `${m.name}: only what it needs`).toMatch(
          /^(package\.json|README\.md|LICENSE|dist\/.+|bin\/.+|generated\/cases\.json)$/,
        );
      for (const f of files) expect(f, `${m.name}: no build leftovers`).not.toMatch(/\.tsbuildinfo$|(^|\/)test\//);
      // Source maps carry their sources: the .ts files they point at are not shipped.
      for (const f of [...files].filter((p) => p.endsWith('.js.map'))) {
        const map = JSON.parse(readFileSync(join(ROOT, dir, f), 'utf8')) as {
          sources: string[];
          sourcesContent?: (string | null)[];
        };
        expect(map.sourcesContent?.length, `${m.name}/${f}: sourcesContent`).toBe(map.sources.length);
        expect(
          map.sourcesContent!.every((s) => typeof s === 'string'),
          `${m.name}/${f}: every source inlined`,
        ).toBe(true);
      }
      expect(m.license).toBe('Apache-2.0');
      expect(m.repository).toEqual({ type: 'git', url: REPO_URL, directory: dir });
      expect(m.publishConfig).toEqual({ access: 'public' });
      expect(m.engines).toEqual(rootManifest.engines);
      for (const key of ['homepage', 'bugs', 'description', 'types', 'exports'])
        expect(m[key], `${m.name}: ${key}`).toBeDefined();
      for (const dep of Object.keys(m.dependencies ?? {}))
        expect(dep, `${m.name} must not depend on a GPU backend`).not.toMatch(/^@sparse\/kernels-(web)?gpu$/);
      // On the registry page a relative link goes nowhere.
      const readme = readFileSync(join(ROOT, dir, 'README.md'), 'utf8');
      for (const [, target] of readme.matchAll(/\]\(([^)\s]+)\)/g))
        expect(target, `${m.name} README link`).toMatch(/^(https:\/\/|#)/);
      log(`${m.name}: ${files.size} files, ${kib(report.size)} packed`);
    }
  }, 300_000);

  it('packs from the checkout and installs into a fresh app outside the workspace in seconds, with nothing native', () => {
    const packs = join(work, 'packs');
    mkdirSync(packs);
    for (const { dir, manifest } of PACKAGES) {
      const [packed] = JSON.parse(
        jsonTail(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', packs, '-w', dir], ROOT), '[\n  {'),
      ) as { filename: string }[];
      tarballs.set(manifest.name, join(packs, packed.filename));
    }
    const app = join(work, 'plain');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'plain-app', private: true, type: 'module' }));
    const started = performance.now();
    npm(
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--cache',
        join(work, 'empty-npm-cache'),
        ...RUNTIME_CLOSURE.map((n) => tarballs.get(n)!),
      ],
      app,
    );
    const seconds = (performance.now() - started) / 1000;
    const installed = filesUnder(join(app, 'node_modules')).filter((f) => !f.includes('/.package-lock.json'));
    const bytes = installed.reduce((sum, f) => sum + statSync(f).size, 0);
    log(
      `npm install of ${RUNTIME_CLOSURE.join(', ')} (empty cache): ${seconds.toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB`,
    );
    const manifests = installed.filter(
      (f) => f.endsWith('/package.json') && !relative(join(app, 'node_modules'), f).includes('/dist/'),
    );
    const names = manifests.map((f) => (JSON.parse(readFileSync(f, 'utf8')) as Manifest).name);
    expect(names.sort()).toEqual([...RUNTIME_CLOSURE].sort());
    // Nothing to compile or fetch at install: no install scripts, no native addons.
    for (const f of manifests) {
      const scripts = (JSON.parse(readFileSync(f, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
      for (const hook of ['preinstall', 'install', 'postinstall'])
        expect(scripts[hook], `${f}: ${hook}`).toBeUndefined();
    }
    expect(installed.filter((f) => f.endsWith('.node') || f.endsWith('binding.gyp'))).toEqual([]);
    expect(bytes).toBeLessThan(30e6);
  }, 300_000);

  const EXPECTED = {
    matmul: [
      [1, 2],
      [10, 12],
      [9, 12],
    ],
    toDense: [
      [1, 0, 0],
      [0, 0, 2],
      [0, 3, 0],
    ],
    reduceSum: [1, 2, 3],
    reorder: [
      [0, 1],
      [1, 0],
    ],
  };

  /**
   * The report of app/src/checks.js, as it must be wherever the app runs: the wasm backend on two threads where the
   * page is cross-origin isolated (and in Node), else on one.
   */
  function expectReport(report: Record<string, unknown>, where: string, threads = 2): void {
    expect(report.threads, `${where}: threads`).toEqual({
      threads,
      toDense: [
        [0, 2],
        [0, 0],
      ],
    });
    expect(report.js, `${where}: js`).toEqual({ backend: 'js', ...EXPECTED });
    expect(report.wasm, `${where}: wasm`).toEqual({ backend: 'wasm', ...EXPECTED });
    expect(report.defaultBackend, where).toBe('wasm');
    expect(report.tfjs, `${where}: tf.grad through @sparse/tfjs`).toEqual([
      [1, 1],
      [3, 3],
      [2, 2],
    ]);
    expect(report.error, where).toMatch(
      /^InvalidArgumentError: sparse_tensor_to_dense: sp_input\.indices\[1\] = \[0,0\] is out of order/,
    );
    // Not installed here: the GPU backend says which package to install and how to register it.
    expect(report.gpu, where).toMatch(
      /@sparse\/kernels-gpu.*npm install @sparse\/kernels-gpu.*registerBackend\('gpu', createGpuBackend\)/s,
    );
  }

  it('runs in Node on js and wasm, as an ES module and from CommonJS; the gpu backend names its package', () => {
    const app = join(work, 'plain');
    cpSync(APP, app, { recursive: true, filter: (src) => !src.endsWith('package.json') });
    // @sparse/tfjs beside the runtime, with TF.js from the registry as its peer.
    npm(['install', '--no-audit', '--no-fund', tarballs.get('@sparse/tfjs')!, ...TFJS], app);
    expectReport(JSON.parse(node(['node-esm.mjs'], app)), 'node');
    expect(JSON.parse(node(['node-cjs.cjs'], app))).toEqual({
      js: { reduceSum: EXPECTED.reduceSum },
      wasm: { reduceSum: EXPECTED.reduceSum },
    });
  }, 60_000);

  const app = join(work, 'app');
  it('type-checks a strict TypeScript consumer with moduleResolution nodenext and bundler, and one of @sparse/tfjs', () => {
    cpSync(APP, app, { recursive: true });
    npm(
      ['install', '--no-audit', '--no-fund', ...[...RUNTIME_CLOSURE, '@sparse/tfjs'].map((n) => tarballs.get(n)!)],
      app,
    );
    for (const config of ['tsconfig.nodenext.json', 'tsconfig.bundler.json', 'tsconfig.tfjs.json']) {
      // tsc prints the errors on stdout and fails: the assertion shows them.
      let output = '';
      try {
        node([join(app, 'node_modules/typescript/bin/tsc'), '-p', config], app);
      } catch (e) {
        output = String((e as { stdout?: string }).stdout ?? e);
      }
      expect(output, config).toBe('');
    }
  }, 300_000);

  it("bundles with Vite, webpack and esbuild; each bundle, and Vite's dev server, runs js and wasm in headless Chromium", async () => {
    const tool = (name: string, args: string[]) => run(join(app, 'node_modules/.bin', name), args, app);
    const page = (dir: string, script: string, type = 'module') =>
      writeFileSync(
        join(dir, 'index.html'),
        `<!doctype html><link rel="icon" href="data:,"><script type="${type}" src="${script}"></script>`,
      );
    const builds: Record<string, string> = {};
    // Vite and webpack: their default configs (the app's index.html; webpack's ./src/index.js → dist/main.js).
    tool('vite', ['build']);
    builds.vite = join(app, 'dist-vite');
    cpSync(join(app, 'dist'), builds.vite, { recursive: true });
    rmSync(join(app, 'dist'), { recursive: true });
    tool('webpack', []);
    builds.webpack = join(app, 'dist-webpack');
    cpSync(join(app, 'dist'), builds.webpack, { recursive: true });
    page(builds.webpack, 'main.js', 'text/javascript');
    // esbuild: the one flag for assets, and the app passes the emitted file's path as wasmPath.
    builds.esbuild = join(app, 'dist-esbuild');
    tool('esbuild', [
      'src/esbuild-wasm-path.js',
      '--bundle',
      '--format=esm',
      '--minify',
      `--outdir=${builds.esbuild}`,
      '--loader:.wasm=file',
    ]);
    page(builds.esbuild, 'esbuild-wasm-path.js');
    // esbuild with no flag: kernels.wasm copied beside the bundle, where the runtime looks by default.
    builds['esbuild (copy)'] = join(app, 'dist-esbuild-copy');
    tool('esbuild', ['src/index.js', '--bundle', '--format=esm', '--minify', `--outdir=${builds['esbuild (copy)']}`]);
    cpSync(
      join(app, 'node_modules/@sparse/runtime/dist/browser/kernels.wasm'),
      join(builds['esbuild (copy)'], 'kernels.wasm'),
    );
    page(builds['esbuild (copy)'], 'index.js');
    // For threads, esbuild's builds get the threaded kernels and the worker's module copied beside the bundle too.
    for (const dir of [builds.esbuild, builds['esbuild (copy)']])
      for (const f of ['kernels-threads.wasm', 'thread-worker.js'])
        cpSync(join(app, 'node_modules/@sparse/runtime/dist/browser', f), join(dir, f));

    for (const [name, dir] of Object.entries(builds)) {
      const files = filesUnder(dir).filter((f) => /\.(js|wasm)$/.test(f));
      const size = (ext: string) => files.filter((f) => f.endsWith(ext)).reduce((s, f) => s + statSync(f).size, 0);
      const gzip = files.filter((f) => f.endsWith('.js')).reduce((s, f) => s + gzipSync(readFileSync(f)).length, 0);
      log(`${name} bundle: js ${kib(size('.js'))} (${kib(gzip)} gzipped), wasm ${kib(size('.wasm'))}`);
    }

    const browser = await launchChromium(join(work, 'chromium-profile'));
    try {
      for (const [name, dir] of Object.entries(builds)) {
        const folder = await serveFolder(dir);
        try {
          const { report, errors } = await reportOf(browser, folder.url);
          expect(errors, name).toEqual([]);
          expect(folder.refused, `${name}: every file the page asked for is in the bundle`).toEqual([]);
          expect(
            folder.requested.some((p) => p.endsWith('.wasm')),
            `${name} fetched its wasm`,
          ).toBe(true);
          expectReport(report, name);
        } finally {
          folder.close();
        }
      }
      // Vite's dev server too (dependencies pre-bundled, served from node_modules), as a user first meets it.
      const dev = await viteDevServer(app);
      try {
        const { report, errors } = await reportOf(browser, dev.url);
        expect(errors, 'vite dev').toEqual([]);
        // Served without COOP and COEP: no shared memory there, so one thread.
        expectReport(report, 'vite dev', 1);
      } finally {
        dev.stop();
      }
    } finally {
      await browser.close();
    }
  }, 300_000);

  /** The report of app/src/webgpu-checks.js, as it must be wherever the webgpu backend runs. */
  function expectWebGpuReport(report: Record<string, unknown>, where: string): void {
    expect(report, where).toEqual({
      backend: 'webgpu',
      ...EXPECTED,
      matmulOn: 'the GPU',
      onDevice: true,
      atOnce: [1, 4, 9],
    });
  }

  it('with @sparse/kernels-webgpu installed: runs in Node on Dawn, and bundled by Vite, webpack and esbuild on navigator.gpu in headless Chromium', async () => {
    const dawn = (JSON.parse(readFileSync(join(ROOT, 'packages/kernels-webgpu/package.json'), 'utf8')) as Manifest)
      .devDependencies!.webgpu;
    npm(['install', '--no-audit', '--no-fund', tarballs.get('@sparse/kernels-webgpu')!, `webgpu@${dawn}`], app);
    expectWebGpuReport(JSON.parse(node(['node-webgpu.mjs'], app)), 'node');

    const tool = (name: string, args: string[]) => run(join(app, 'node_modules/.bin', name), args, app);
    const page = (dir: string, script: string, type = 'module') =>
      writeFileSync(
        join(dir, 'index.html'),
        `<!doctype html><link rel="icon" href="data:,"><script type="${type}" src="${script}"></script>`,
      );
    const builds: Record<string, string> = {};
    // Vite: a page of its own (webgpu/index.html) whose script is the app's src/webgpu.js.
    mkdirSync(join(app, 'webgpu'));
    page(join(app, 'webgpu'), '../src/webgpu.js');
    builds.vite = join(app, 'dist-webgpu-vite');
    tool('vite', ['build', 'webgpu', '--outDir', builds.vite, '--emptyOutDir']);
    builds.webpack = join(app, 'dist-webgpu-webpack');
    tool('webpack', ['--entry', './src/webgpu.js', '--output-path', builds.webpack]);
    page(builds.webpack, 'main.js', 'text/javascript');
    builds.esbuild = join(app, 'dist-webgpu-esbuild');
    tool('esbuild', ['src/webgpu.js', '--bundle', '--format=esm', '--minify', `--outdir=${builds.esbuild}`]);
    page(builds.esbuild, 'webgpu.js');

    const browser = await launchChromium(join(work, 'chromium-webgpu-profile'));
    try {
      for (const [name, dir] of Object.entries(builds)) {
        const files = filesUnder(dir).filter((f) => f.endsWith('.js'));
        const gzip = files.reduce((s, f) => s + gzipSync(readFileSync(f)).length, 0);
        log(`${name} webgpu bundle: js ${kib(files.reduce((s, f) => s + statSync(f).size, 0))} (${kib(gzip)} gzipped)`);
        const folder = await serveFolder(dir);
        try {
          const { report, errors } = await reportOf(browser, folder.url);
          expect(errors, name).toEqual([]);
          expect(folder.refused, `${name}: every file the page asked for is in the bundle`).toEqual([]);
          expectWebGpuReport(report, name);
        } finally {
          folder.close();
        }
      }
    } finally {
      await browser.close();
    }
  }, 300_000);
});

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/** Serves one folder (nothing else) on 127.0.0.1, noting what was asked for and what was not there. */
async function serveFolder(dir: string) {
  const requested: string[] = [];
  const refused: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requested.push(path);
    const file = join(dir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      refused.push(path);
      return void res.writeHead(404).end();
    }
    // Cross-origin isolated, as a page must be for shared memory (the wasm backend's threads).
    res
      .writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-embedder-policy': 'require-corp',
      })
      .end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/`, requested, refused, close: () => server.close() };
}

/** `vite` (the dev server) in the app, on a free port, once it says it is ready. */
async function viteDevServer(app: string) {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn(
    join(app, 'node_modules/.bin/vite'),
    ['--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: app, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`vite dev did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (withoutColours(output).includes(`:${port}/`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`vite dev exited (${code}):\n${output}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
}

/** Opens a page and waits for app/src/checks.js to report. */
async function reportOf(browser: Chromium, url: string) {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { __report?: unknown }).__report !== undefined, undefined, {
      timeout: 60_000,
    });
    const report = await page.evaluate(() => (window as unknown as { __report: Record<string, unknown> }).__report);
    return { report, errors };
  } finally {
    await page.close();
  }
}
