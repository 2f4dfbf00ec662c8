import { kernels } from '@sparse/kernels-js';
import { registerBackend } from './backend.js';
import { createRuntime, Runtime } from './runtime.js';
import { BACKEND_LOADERS } from './generated/backend-loaders.js';
import { checkRuntimeOptions, checkThreadsFor, type RuntimeOptions } from './runtime-options.js';
import { bindOps, type SparseOps } from './generated/ops-api.js';
import { setDefaultOps, setJsSideOps } from './default-ops.js';
import type { VjpOptions, VjpResult } from './vjp.js';
import { JS_SIDE_OPS, type JsSideOps } from './map-values.js';

registerBackend('js', () => ({ name: 'js', kernels }));
// The others on demand: the wasm module is compiled the first time a runtime asks for it.
for (const [name, loader] of Object.entries(BACKEND_LOADERS)) registerBackend(name, loader);

let current: Runtime | undefined;
// Whether setBackend has chosen: then the automatic choice of ready() no longer applies.
let chosen = false;
let choosing: Promise<string> | undefined;

/** The runtime behind `sparse` and `setBackend`: created on first use, on the JS backend until ready() moves it. */
function defaultRuntime(): Runtime {
  current ??= new Runtime({ name: 'js', kernels });
  return current;
}

/**
 * Resolves, with the backend's name, once the default runtime is on the best backend that loads here: wasm, or js
 * where WebAssembly does not load (as TensorFlow.js's `tf.ready()`). In Node it starts when @sparse/runtime is
 * imported, so a program that never awaits it moves to wasm as soon as the module is compiled; in a browser it
 * starts when called (fetching the module is the page's to decide). Until then `sparse.*` runs on js, which
 * computes the same results. A backend chosen with setBackend is kept.
 */
export function ready(): Promise<string> {
  choosing ??= createRuntime({ backend: 'wasm' }).then(
    (rt) => {
      if (!chosen) current = rt;
      return getBackend();
    },
    () => getBackend(),
  );
  return choosing;
}
if (typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string') {
  void ready();
}

/**
 * Switches the default runtime (the one behind `sparse.*` and SparseTensor methods) to another backend; `options`
 * as `createRuntime`'s, but for the backend (`setBackend('wasm', { wasmPath })`).
 */
export async function setBackend(name: string, options?: Omit<RuntimeOptions, 'backend'>): Promise<void> {
  const checked = checkRuntimeOptions(options, 'setBackend');
  if (checked.backend !== undefined)
    throw new TypeError('setBackend: the backend is the first argument, not an option');
  checkThreadsFor(name, checked, 'setBackend');
  chosen = true;
  current = await createRuntime({ ...checked, backend: name });
}

/** The default runtime: the one behind `sparse.*`, `run` and SparseTensor methods, which follows `setBackend`. */
export function getRuntime(): Runtime {
  return defaultRuntime();
}

/** The name of the default runtime's backend. */
export function getBackend(): string {
  return defaultRuntime().backend;
}

/** Runtime.run on the default runtime (follows `setBackend`): an op by id, arguments and outputs keyed by spec name. */
export function run(opId: string, args: Record<string, unknown>): Record<string, unknown> {
  return defaultRuntime().run(opId, args);
}

/** Runtime.vjp on the default runtime (follows `setBackend`): the gradient of each argument of an op. */
export function vjp(opId: string, args: Record<string, unknown>, upstream: unknown, options?: VjpOptions): VjpResult {
  return defaultRuntime().vjp(opId, args, upstream, options);
}

/**
 * Runtime.prepare on the default runtime (follows `setBackend`): checks tensors and keeps them prepared for the
 * calls to come. Call it after `ready()` resolves, so that the backend preparing them is the one that runs them.
 */
export function prepare(...tensors: Parameters<Runtime['prepare']>): void {
  defaultRuntime().prepare(...tensors);
}

/** Every op on the default runtime (follows `setBackend`), and the JS-side ops (`mapValues`). */
export const sparse: SparseOps & JsSideOps = {
  ...bindOps((opId, args) => defaultRuntime().run(opId, args)),
  ...JS_SIDE_OPS,
};
setDefaultOps(sparse);
setJsSideOps(JS_SIDE_OPS);
