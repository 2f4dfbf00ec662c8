import { createRuntime } from '@sparse/runtime';
import { webgpuChecks } from './src/webgpu-checks.js';

// The webgpu backend in Node, as installed (`npm install @sparse/kernels-webgpu webgpu`): no registration, Dawn;
// the process ends on its own once the work is done.
const rt = await createRuntime({ backend: 'webgpu' });
console.log(JSON.stringify(await webgpuChecks(rt)));
