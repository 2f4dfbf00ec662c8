import { describe } from './dtype.js';
import { BACKEND_LOADERS, THREADED_BACKENDS } from './generated/backend-loaders.js';

/** What `createRuntime` and `setBackend` take. */
export interface RuntimeOptions {
  /**
   * The backend: `'js'` (the default), `'wasm'`, `'webgpu'` or `'gpu'` (the separately installed
   * `@sparse/kernels-webgpu` and `@sparse/kernels-gpu`), or a name given to `registerBackend`.
   */
  backend?: string;
  /**
   * Where the wasm backend loads `kernels.wasm` from, for a CDN or a setup no bundler handles: a URL, or a path
   * (relative to the page in a browser, to the working directory in Node). By default the file beside the
   * backend's own module, which webpack and Vite copy into the app by themselves.
   */
  wasmPath?: string | URL;
  /**
   * The bytes one op's outputs and working memory may take; a call that would need more is refused with a
   * ResourceExhaustedError before anything is allocated. Default: a quarter of the machine's memory in Node,
   * 1 GiB where the platform does not say (browsers).
   */
  maxBytes?: number;
  /**
   * The wasm backend only: the threads its calls may run on (default 1). With more it starts `threads - 1` worker
   * threads over a shared wasm memory (worker_threads in Node; Web Workers in a cross-origin isolated page, else
   * one thread) and splits the big passes between them; results are bit-identical to one thread.
   */
  threads?: number;
}

const OPTION_NAMES: readonly (keyof RuntimeOptions)[] = ['backend', 'wasmPath', 'maxBytes', 'threads'];

/** The options, checked: an unknown (say, misspelled) key or a value of the wrong kind is a TypeError. */
export function checkRuntimeOptions(options: unknown, caller: string): RuntimeOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${caller}: options must be an object such as { backend: 'wasm' }, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!(OPTION_NAMES as readonly string[]).includes(key)) {
      throw new TypeError(`${caller}: unknown option '${key}'; the options are ${OPTION_NAMES.join(', ')}`);
    }
  }
  const { backend, wasmPath, maxBytes, threads } = options as Record<string, unknown>;
  if (threads !== undefined && !(typeof threads === 'number' && Number.isInteger(threads) && threads >= 1))
    throw new TypeError(`${caller}: threads must be a whole number >= 1, got ${describe(threads)}`);
  if (maxBytes !== undefined && !(typeof maxBytes === 'number' && maxBytes > 0 && !Number.isNaN(maxBytes)))
    throw new TypeError(`${caller}: maxBytes must be a number of bytes > 0, got ${describe(maxBytes)}`);
  if (backend !== undefined && typeof backend !== 'string')
    throw new TypeError(`${caller}: backend must be a string, got ${describe(backend)}`);
  if (wasmPath !== undefined && typeof wasmPath !== 'string' && !(wasmPath instanceof URL)) {
    throw new TypeError(`${caller}: wasmPath must be a string or a URL, got ${describe(wasmPath)}`);
  }
  return options as RuntimeOptions;
}

/**
 * `threads` is the wasm backend's: a TypeError where it is given for js or another of our backends, which have no
 * threads to use (a backend an app registers may take it).
 */
export function checkThreadsFor(backend: string, options: RuntimeOptions, caller: string): void {
  const ours = backend === 'js' || Object.hasOwn(BACKEND_LOADERS, backend);
  if (options.threads !== undefined && ours && !THREADED_BACKENDS.includes(backend))
    throw new TypeError(`${caller}: threads is an option of the wasm backend, not of ${backend}`);
}
