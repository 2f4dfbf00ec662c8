// The browser bundle: one ES module, dist/browser/sparse.js, holding @sparse/runtime with its js and wasm backends,
// and dist/browser/kernels.wasm beside it, which the wasm backend fetches on first use (kernels-as finds it with
// `new URL('./kernels.wasm', import.meta.url)`, so beside whatever module holds that line); for a threaded wasm
// backend, its threaded build kernels-threads.wasm and its worker's module thread-worker.js, found the same way.
// Built from the compiled dist/ of every package, so the bundle is the code Node runs. The GPU backend has its own
// bundle, in kernels-gpu.
import { copyFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBrowserModule } from '../../../tools/browser-module.mjs';

const PKG = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(PKG, 'dist/browser');

const kib = await buildBrowserModule(join(PKG, 'dist/index.js'), join(OUT, 'sparse.js'));
copyFileSync(fileURLToPath(import.meta.resolve('@sparse/kernels-as/kernels.wasm')), join(OUT, 'kernels.wasm'));
const kernelsAs = dirname(fileURLToPath(import.meta.resolve('@sparse/kernels-as/kernels.wasm')));
copyFileSync(join(kernelsAs, 'kernels-threads.wasm'), join(OUT, 'kernels-threads.wasm'));
await buildBrowserModule(join(kernelsAs, 'thread-worker.js'), join(OUT, 'thread-worker.js'));
console.log(
  `browser bundle: dist/browser/sparse.js (${kib} KiB), dist/browser/kernels.wasm (${Math.round(statSync(join(OUT, 'kernels.wasm')).size / 1024)} KiB)`,
);
