import { WASM_URL } from './wasm-url.js';

/** The exports of build/kernels.wasm this package calls, by name. */
export type WasmExports = Record<string, unknown> & {
  memory: WebAssembly.Memory;
  lastErrorCode(): number;
  lastErrorEntry(): number;
  clearError(): void;
};

/** Compiles and instantiates the kernels: from the package's file in Node, by fetch in a browser. */
export async function instantiateKernels(source?: BufferSource | URL): Promise<WasmExports> {
  const bytes = source instanceof URL || source === undefined ? await readBytes(source ?? WASM_URL) : source;
  const { instance } = await WebAssembly.instantiate(bytes, {
    env: {
      abort(_msg: number, _file: number, line: number, column: number) {
        throw new Error(`wasm kernel aborted at ${line}:${column}`);
      },
    },
  });
  return instance.exports as unknown as WasmExports;
}

async function readBytes(url: URL): Promise<ArrayBuffer> {
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    const buf = await readFile(url);
    return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`cannot load the wasm kernels from ${url}: HTTP ${res.status}`);
  return res.arrayBuffer();
}
