// The browser bundle: one ES module, dist/browser/sparse.js, holding @sparse/runtime with its three backends — the
// JS kernels, the wasm backend's glue and gpu.js (its browser build, which the package's "browser" field picks) —
// and dist/browser/kernels.wasm beside it, which the wasm backend fetches on first use. Run by the package's build
// after tsc, from the compiled dist/ of every package (so the bundle is the code Node runs).
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PKG = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(PKG, 'dist/browser');
// The kernels of the kernels-as package this runtime depends on, where its own loader finds them (../build from dist/).
const WASM = fileURLToPath(new URL('../build/kernels.wasm', import.meta.resolve('@sparse/kernels-as')));

// kernels-as locates its kernels in one module, dist/wasm-url.js (build/ beside dist/); in the bundle they sit
// beside the bundle file instead, found relative to the bundle's own URL wherever it is served.
let wasmUrlSwapped = false;
const wasmBesideBundle = {
  name: 'wasm-beside-bundle',
  setup(b) {
    b.onLoad({ filter: /[\\/]kernels-as[\\/]dist[\\/]wasm-url\.js$/ }, () => {
      wasmUrlSwapped = true;
      return { contents: "export const WASM_URL = new URL('./kernels.wasm', import.meta.url);\n", loader: 'js' };
    });
  },
};

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
  // Only the Node path of the wasm loader (reading a file: URL) imports node:*; a browser never takes it.
  external: ['node:*'],
  plugins: [wasmBesideBundle],
  logLevel: 'warning',
});
if (!wasmUrlSwapped) throw new Error('bundle: kernels-as/dist/wasm-url.js was not in the bundle; the wasm backend would look for its kernels in the wrong place');
copyFileSync(WASM, join(OUT, 'kernels.wasm'));
const kib = (f) => `${Math.round(statSync(join(OUT, f)).size / 1024)} KiB`;
console.log(`browser bundle: dist/browser/sparse.js (${kib('sparse.js')}), dist/browser/kernels.wasm (${kib('kernels.wasm')})`);
