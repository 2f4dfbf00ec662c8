import { loadBytes } from '#load-bytes';
import { WASM_URL } from './wasm-url.js';

/** The exports of dist/kernels.wasm this package calls, by name. */
export type WasmExports = Record<string, unknown> & {
  memory: WebAssembly.Memory;
  lastErrorCode(): number;
  lastErrorEntry(): number;
  clearError(): void;
};

/**
 * Compiles and instantiates the kernels: given bytes, or read from a URL or path (default: the package's own
 * kernels.wasm), from disk in Node and by fetch elsewhere.
 */
export async function instantiateKernels(source?: BufferSource | URL | string): Promise<WasmExports> {
  const bytes =
    source === undefined || source instanceof URL || typeof source === 'string'
      ? await loadBytes(source ?? WASM_URL)
      : source;
  const { instance } = await WebAssembly.instantiate(bytes, {
    env: {
      abort(_msg: number, _file: number, line: number, column: number) {
        throw new Error(`wasm kernel aborted at ${line}:${column}`);
      },
    },
  });
  return instance.exports as unknown as WasmExports;
}
