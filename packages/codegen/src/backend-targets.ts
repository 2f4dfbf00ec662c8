import type { LoadedSpec } from './spec-types.js';

/**
 * The backends besides the JS reference, as codegen builds their kernel tables: where each keeps its hand-written
 * kernels, and which ops its family emitter generates. A new backend is one entry here, beside its emitter.
 */
export interface BackendTarget {
  /** The backend's name: what `createRuntime({ backend })` and a spec's `dispatch` call it. */
  name: string;
  /** Its package's folder under packages/. */
  dir: string;
  /** Its package, and the function that makes the backend (given the runtime options named by `passes`). */
  package: string;
  factory: string;
  /** The runtime options it is made with: `source` as its first argument, `options` in an object as its second. */
  passes?: { source: 'wasmPath'; options: readonly 'threads'[] };
  /** Whether its family emitter generates the op's kernel. */
  generates(spec: LoadedSpec): boolean;
}

export const BACKEND_TARGETS: readonly BackendTarget[] = [
  {
    name: 'wasm',
    dir: 'kernels-as',
    package: '@sparse/kernels-as',
    factory: 'createWasmBackend',
    passes: { source: 'wasmPath', options: ['threads'] },
    generates: (s) => s.compiled !== undefined || s.derived !== undefined,
  },
  // gpu.js computes in float32: an expression-family op is generated where float32 is one of its dtypes. Derived
  // gradient ops declare that they run on the JS kernels there (gradient-specs.ts).
  {
    name: 'gpu',
    dir: 'kernels-gpu',
    package: '@sparse/kernels-gpu',
    factory: 'createGpuBackend',
    generates: (s) => s.compiled?.dtypes.includes('float32') ?? false,
  },
];

export const BACKEND_NAMES = BACKEND_TARGETS.map((b) => b.name);

/** How an op runs on a backend: a generated family kernel, its own hand-written kernel, or the JS kernel. */
export type Dispatch = 'generated' | 'kernel' | 'js';

export function dispatchOf(spec: LoadedSpec, target: BackendTarget): Dispatch {
  if (spec.kernel.dispatch?.[target.name] === 'js') return 'js';
  return target.generates(spec) ? 'generated' : 'kernel';
}
