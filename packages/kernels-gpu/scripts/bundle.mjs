// The GPU backend for pages without a bundler: dist/browser/sparse-gpu.js, one ES module holding this package,
// the JS kernels it delegates to and gpu.js's browser build (which the gpu.js package's "browser" field picks).
// A page registers it with the runtime's browser bundle: registerBackend('gpu', createGpuBackend).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBrowserModule } from '../../../tools/browser-module.mjs';

const PKG = join(dirname(fileURLToPath(import.meta.url)), '..');
const kib = await buildBrowserModule(join(PKG, 'dist/index.js'), join(PKG, 'dist/browser/sparse-gpu.js'));
console.log(`browser bundle: dist/browser/sparse-gpu.js (${kib} KiB)`);
