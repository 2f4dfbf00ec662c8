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
  const isBytes = source !== undefined && !(source instanceof URL) && typeof source !== 'string';
  const path = isBytes ? undefined : source;
  const bytes = isBytes ? source : await loadBytes(source ?? WASM_URL);
  const module = await WebAssembly.compile(bytes);
  checkKernelsModule(module, path);
  return module;
}

/** A build of the kernels: its file, what it imports, and whether it exports its memory or imports a shared one. */
export interface KernelsBuild {
  file: string;
  imports: readonly string[];
  memory: 'import' | 'export';
}

const SINGLE_THREAD: KernelsBuild = { file: 'kernels.wasm', imports: [], memory: 'export' };
export const THREADED_BUILD: KernelsBuild = { file: 'kernels-threads.wasm', imports: ['env.memory'], memory: 'import' };

// What the JS side reads before any kernel runs.
const CORE_EXPORTS: readonly [string, WebAssembly.ImportExportKind][] = [
  ['memory', 'memory'],
  ['clearError', 'function'],
  ['lastErrorCode', 'function'],
  ['lastErrorEntry', 'function'],
];

/**
 * Refuses a valid wasm module that is not this package's kernels.wasm (a wasmPath naming some other .wasm), by its
 * imports and exports, before it is instantiated: without this the first read of a missing export fails as
 * "Cannot read properties of undefined". `path` names where it came from (undefined for bytes given).
 */
export function checkKernelsModule(
  module: WebAssembly.Module,
  path: URL | string | undefined,
  build: KernelsBuild = SINGLE_THREAD,
): void {
  const exports = new Map(WebAssembly.Module.exports(module).map((e) => [e.name, e.kind]));
  const core = build.memory === 'export' ? CORE_EXPORTS : CORE_EXPORTS.filter(([, kind]) => kind !== 'memory');
  const missing = core.filter(([name, kind]) => exports.get(name) !== kind).map(([name]) => name);
  const imports = WebAssembly.Module.imports(module)
    .map((i) => `${i.module}.${i.name}`)
    .filter((name) => !build.imports.includes(name));
  if (missing.length === 0 && imports.length === 0) return;
  const where = path === undefined ? 'the wasm module given' : `wasmPath ${String(path)}`;
  const why = [
    missing.length > 0 ? `it lacks the exports ${missing.join(', ')}` : '',
    imports.length > 0 ? `it imports ${imports.slice(0, 3).join(', ')}${imports.length > 3 ? '…' : ''}` : '',
  ]
    .filter(Boolean)
    .join(', and ');
  throw new Error(
    `${where} is not sparse's ${build.file}: ${why} (point wasmPath at the kernels.wasm of @sparse/kernels-as${build === SINGLE_THREAD ? '' : ', with its kernels-threads.wasm beside it'})`,
  );
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
