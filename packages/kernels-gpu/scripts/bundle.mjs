// The GPU backend for pages without a bundler: dist/browser/sparse-gpu.js, one ES module holding this package,
// the JS kernels it delegates to and gpu.js's browser build (which the gpu.js package's "browser" field picks).
// A page registers it with the runtime's browser bundle: registerBackend('gpu', createGpuBackend).
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PKG = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(PKG, 'dist/browser');

mkdirSync(OUT, { recursive: true });
await build({
  entryPoints: [join(PKG, 'dist/index.js')],
  outfile: join(OUT, 'sparse-gpu.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  logLevel: 'warning',
});
console.log(`browser bundle: dist/browser/sparse-gpu.js (${Math.round(statSync(join(OUT, 'sparse-gpu.js')).size / 1024)} KiB)`);
