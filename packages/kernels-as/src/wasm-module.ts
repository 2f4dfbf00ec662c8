import type { instantiate } from '../dist/kernels.js';
import { loadBytes } from '#load-bytes';
import { WASM_URL } from './wasm-url.js';

// The signature of every export, as asc writes them for its own wrapper layer (`--bindings raw`).
type Adapted = Awaited<ReturnType<typeof instantiate>>;

/** An export called directly, without asc's wrapper: a bool goes in as true/false or 1/0 and comes back as 0/1. */
type Unwrapped<F> = F extends (...args: infer A) => infer R
  ? (...args: { [K in keyof A]: A[K] extends boolean ? boolean | number : A[K] }) => R extends boolean ? number : R
  : F;

/** The exports of dist/kernels.wasm, typed from its AssemblyScript signatures. */
export type WasmExports = { [K in keyof Adapted]: Unwrapped<Adapted[K]> };

/** The name of an exported kernel function. */
export type WasmFunction = {
  [K in keyof WasmExports]: WasmExports[K] extends (...a: never[]) => unknown ? K : never;
}[keyof WasmExports];

/**
 * Compiles the kernels: given bytes, or read from a URL or path (default: the package's own kernels.wasm), from
 * disk in Node and by fetch elsewhere.
 */
export async function compileKernels(source?: BufferSource | URL | string): Promise<WebAssembly.Module> {
  const bytes =
    source === undefined || source instanceof URL || typeof source === 'string'
      ? await loadBytes(source ?? WASM_URL)
      : source;
  return WebAssembly.compile(bytes);
}

/** A fresh instance of the compiled kernels, with the memory the module starts with. */
export async function instantiateKernels(module: WebAssembly.Module): Promise<WasmExports> {
  const instance = await WebAssembly.instantiate(module, {
    env: {
      abort(_msg: number, _file: number, line: number, column: number) {
        throw new Error(`wasm kernel aborted at ${line}:${column}`);
      },
    },
  });
  return instance.exports as unknown as WasmExports;
}
