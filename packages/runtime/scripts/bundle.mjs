// The browser bundle: one ES module, dist/browser/sparse.js, holding @sparse/runtime with its js and wasm backends,
// and dist/browser/kernels.wasm beside it, which the wasm backend fetches on first use (kernels-as finds it with
// `new URL('./kernels.wasm', import.meta.url)`, so beside whatever module holds that line). Built from the compiled
// dist/ of every package, so the bundle is the code Node runs. The GPU backend has its own bundle, in kernels-gpu.
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PKG = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(PKG, 'dist/browser');
const WASM = fileURLToPath(import.meta.resolve('@sparse/kernels-as/kernels.wasm'));

mkdirSync(OUT, { recursive: true });
await build({
  entryPoints: [join(PKG, 'dist/index.js')],
  outfile: join(OUT, 'sparse.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  logLevel: 'warning',
});
copyFileSync(WASM, join(OUT, 'kernels.wasm'));
const kib = (f) => `${Math.round(statSync(join(OUT, f)).size / 1024)} KiB`;
console.log(`browser bundle: dist/browser/sparse.js (${kib('sparse.js')}), dist/browser/kernels.wasm (${kib('kernels.wasm')})`);
