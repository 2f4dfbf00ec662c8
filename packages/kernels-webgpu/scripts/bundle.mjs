// The webgpu backend for pages without a bundler: dist/browser/sparse-webgpu.js, one ES module holding this
// package and the JS kernels it delegates to (a browser has navigator.gpu: Dawn's package is Node's only).
// A page registers it with the runtime's browser bundle: registerBackend('webgpu', createWebGpuBackend).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBrowserModule } from '../../../tools/browser-module.mjs';

const PKG = join(dirname(fileURLToPath(import.meta.url)), '..');
const kib = await buildBrowserModule(join(PKG, 'dist/index.js'), join(PKG, 'dist/browser/sparse-webgpu.js'));
console.log(`browser bundle: dist/browser/sparse-webgpu.js (${kib} KiB)`);
