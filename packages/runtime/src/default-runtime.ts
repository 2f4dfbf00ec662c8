import { kernels } from '@sparse/kernels-js';
import { registerBackend, type Backend } from './backend.js';
import { createRuntime, Runtime } from './runtime.js';
import { bindOps, type SparseOps } from './generated/ops-api.js';

registerBackend('js', () => ({ name: 'js', kernels }));
// Loaded on demand: the wasm module is compiled the first time a runtime asks for it.
registerBackend('wasm', async () => {
  const { createWasmBackend } = await import('@sparse/kernels-as');
  return (await createWasmBackend()) as unknown as Backend;
});
// Loaded on demand: gpu.js on WebGL (headless-gl in Node, under a display); without WebGL it fails, saying why.
registerBackend('gpu', async () => {
  const { createGpuBackend } = await import('@sparse/kernels-gpu');
  return (await createGpuBackend()) as unknown as Backend;
});

let current: Runtime | undefined;

/** The runtime behind `sparse` and `setBackend`: created on first use, on the JS backend. */
function defaultRuntime(): Runtime {
  current ??= new Runtime({ name: 'js', kernels });
  return current;
}

/** Switches the default runtime (the one behind `sparse.*` and SparseTensor methods) to another backend. */
export async function setBackend(name: string): Promise<void> {
  current = await createRuntime({ backend: name });
}

/** The name of the default runtime's backend. */
export function getBackend(): string {
  return defaultRuntime().backend;
}

/** Every op on the default runtime; follows `setBackend`. */
export const sparse: SparseOps = bindOps((opId, args) => defaultRuntime().run(opId, args));

export function defaultOps(): SparseOps {
  return sparse;
}
