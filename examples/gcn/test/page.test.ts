import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { launchChromium } from '@sparse/test-kit/chromium';
import { afterAll, expect, it } from 'vitest';
import { buildPage } from '../page/build.mjs';

// The GCN page as a visitor meets it: bundled as an app bundles it (page/build.mjs: esbuild over the installed
// packages), served on 127.0.0.1, opened in headless Chromium; it trains on the karate club by itself. For each
// backend the test waits for training to finish, checks the accuracy the page reports, and saves a screenshot in
// test/output/ (not committed).

const OUTPUT = join(import.meta.dirname, 'output');
const work = mkdtempSync(join(tmpdir(), 'sparse-gcn-page-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

it('trains the karate-club GCN in Chromium on wasm, js and webgpu, to the accuracy it reports, and draws it', async () => {
  const site = join(work, 'site');
  await buildPage(site);
  const refused: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = join(site, path === '/' ? 'index.html' : path);
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      refused.push(path);
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const browser = await launchChromium(join(work, 'profile'));
  mkdirSync(OUTPUT, { recursive: true });
  try {
    for (const backend of ['wasm', 'js', 'webgpu']) {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setViewportSize({ width: 1100, height: 720 });
      await page.goto(`http://127.0.0.1:${port}/?backend=${backend}`);
      await page.waitForFunction(
        () => (window as unknown as { __gcn?: { done: boolean } }).__gcn?.done === true,
        undefined,
        {
          timeout: 120_000,
        },
      );
      const report = await page.evaluate(
        () =>
          (
            window as unknown as {
              __gcn: {
                backend: string;
                device: string;
                tfBackend: string;
                accuracy: number;
                losses: number[];
                error?: string;
              };
            }
          ).__gcn,
      );
      const status = await page.textContent('#status');
      const picked = await page.$eval('#backend', (s) => (s as HTMLSelectElement).selectedOptions[0].textContent);
      await page.screenshot({ path: join(OUTPUT, `karate-gcn-${backend}.png`) });
      await page.close();
      expect(errors, backend).toEqual([]);
      expect(report.error, backend).toBeUndefined();
      expect(report.backend).toBe(backend);
      // On webgpu, TF.js runs on its webgpu backend too, and the page says on which device.
      expect(report.tfBackend).toBe(backend === 'webgpu' ? 'webgpu' : 'cpu');
      if (backend === 'webgpu') {
        expect(picked).toBe('webgpu (every op on the GPU)');
        expect(status).toMatch(/on webgpu \(TF\.js webgpu, one GPU device: .+\)/);
      }
      expect(report.losses).toHaveLength(200);
      expect(report.losses[199]).toBeLessThan(report.losses[0] / 10);
      expect(report.accuracy).toBeGreaterThanOrEqual(33 / 34);
      expect(status).toContain(`training accuracy ${(report.accuracy * 100).toFixed(1)}%`);
    }
    expect(refused).toEqual([]);
  } finally {
    await browser.close();
    server.close();
  }
}, 300_000);
