// node examples/gcn/page/build.mjs [outDir] [--serve]: bundles the page as an app would (esbuild, from the packages
// as they are installed: @sparse/runtime, @sparse/tfjs, @tensorflow/tfjs), with the runtime's kernels.wasm copied
// beside the bundle, where the runtime looks for it. --serve serves the folder on http://127.0.0.1:8080/.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Writes index.html, demo.js and kernels.wasm into `outDir`. */
export async function buildPage(outDir) {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(HERE, 'demo.mjs')],
    bundle: true,
    format: 'esm',
    minify: true,
    outfile: join(outDir, 'demo.js'),
    logLevel: 'error',
  });
  const runtime = dirname(createRequire(import.meta.url).resolve('@sparse/runtime/package.json'));
  copyFileSync(join(runtime, 'dist/browser/kernels.wasm'), join(outDir, 'kernels.wasm'));
  copyFileSync(join(HERE, 'index.html'), join(outDir, 'index.html'));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = resolve(process.argv.find((a, i) => i > 1 && !a.startsWith('--')) ?? join(HERE, 'dist'));
  await buildPage(out);
  console.log(`built ${out}`);
  if (process.argv.includes('--serve')) {
    const { createServer } = await import('node:http');
    const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
    createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const file = join(out, path === '/' ? 'index.html' : path);
      try {
        res.writeHead(200, { 'content-type': types[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' });
        res.end(readFileSync(file));
      } catch {
        res.writeHead(404).end();
      }
    }).listen(8080, '127.0.0.1', () => console.log('serving http://127.0.0.1:8080/'));
  }
}
