import { createRuntime, registerBackend } from '@sparse/runtime';
import { createWebGpuBackend } from '@sparse/kernels-webgpu';
import { webgpuChecks } from './webgpu-checks.js';

// The page of a bundled app on the webgpu backend (navigator.gpu), registered as its README says.
registerBackend('webgpu', createWebGpuBackend);
createRuntime({ backend: 'webgpu' })
  .then(webgpuChecks)
  .then(
    (report) => (window.__report = report),
    (e) => (window.__report = { error: String(e?.stack ?? e) }),
  );
