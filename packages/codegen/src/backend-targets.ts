import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emitAsErrorCodes } from './emit-error-codes.js';
import { emitAsFamilies, emitAsFamilyTable } from './emit-as-kernels.js';
import { emitGpuFamilies } from './emit-gpu-kernels.js';
import { emitWebGpuFamilies } from './emit-webgpu-kernels.js';
import { emitWebGpuGradients, webGpuGeneratesGradient } from './emit-webgpu-gradients.js';
import { emitSourceCopy } from './emit-source-copy.js';
import type { LoadedSpec } from './spec-types.js';

const CODEGEN = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATES = join(CODEGEN, 'templates');
const SRC = join(CODEGEN, 'src');

/**
 * The backends besides the JS reference, each one declared unit: its name and package, how the runtime makes it,
 * which ops its family emitter generates, what runs an op it has no kernel for, and the files it generates. From
 * an entry here codegen writes the backend's kernel table, its loader in the runtime, its column of ops.md and its
 * generated sources; conformance runs every backend the runtime lists. Adding a backend is its package and an
 * entry here.
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
  /**
   * An op it neither generates nor has a kernel file for: `js` runs it on the JS kernel, declared here once for
   * the backend (reported as delegated); `missing` is a codegen error naming the file to write. A spec overrides
   * either for itself with `dispatch: {<name>: js}`.
   */
  unported: 'js' | 'missing';
  /** What else it generates, by path under its package folder (its kernel table is written for every backend). */
  outputs(specs: LoadedSpec[]): Record<string, string>;
}

export const BACKEND_TARGETS: readonly BackendTarget[] = [
  {
    name: 'wasm',
    dir: 'kernels-as',
    package: '@sparse/kernels-as',
    factory: 'createWasmBackend',
    passes: { source: 'wasmPath', options: ['threads'] },
    generates: (s) => s.compiled !== undefined || s.derived !== undefined,
    unported: 'missing',
    outputs: (specs) => ({
      'assembly/generated/error-codes.ts': emitAsErrorCodes(),
      'assembly/generated/families.ts': emitAsFamilies(specs, join(TEMPLATES, 'as/families.ts.hbs')),
      'src/generated/family-ops.ts': emitAsFamilyTable(specs, { gradients: true }),
    }),
  },
  // gpu.js computes in float32: an expression-family op is generated where float32 is one of its dtypes. The
  // derived gradient ops and the structural ops without a kernel file run on the JS kernels there.
  {
    name: 'gpu',
    dir: 'kernels-gpu',
    package: '@sparse/kernels-gpu',
    factory: 'createGpuBackend',
    generates: (s) => s.compiled?.dtypes.includes('float32') ?? false,
    unported: 'js',
    outputs: (specs) => ({
      'src/generated/families.ts': emitGpuFamilies(specs, join(TEMPLATES, 'gpu/families.ts.hbs')),
      'src/generated/int-range.ts': emitSourceCopy(join(SRC, 'expr/int-range-runtime.ts')),
      'src/generated/family-ops.ts': emitAsFamilyTable(specs, { gradients: false }),
    }),
  },
  // WGSL computes f32 and i32: an expression-family op is generated where it allows either, and the derived
  // gradients of the map and cwise ops in float32. Everything without a kernel file runs on the JS kernels there,
  // reported as delegated.
  {
    name: 'webgpu',
    dir: 'kernels-webgpu',
    package: '@sparse/kernels-webgpu',
    factory: 'createWebGpuBackend',
    generates: (s) =>
      (s.compiled?.dtypes.some((d) => d === 'float32' || d === 'int32') ?? false) || webGpuGeneratesGradient(s),
    unported: 'js',
    outputs: (specs) => ({
      'src/generated/families.ts': emitWebGpuFamilies(specs, join(TEMPLATES, 'webgpu/families.ts.hbs')),
      'src/generated/gradients.ts': emitWebGpuGradients(specs, join(TEMPLATES, 'webgpu/gradients.ts.hbs')),
    }),
  },
];

export const BACKEND_NAMES = BACKEND_TARGETS.map((b) => b.name);

/** How an op runs on a backend: a generated family kernel, its own hand-written kernel, or the JS kernel. */
export type Dispatch = 'generated' | 'kernel' | 'js';

/** Where a backend keeps its hand-written kernels, one file per op. */
export function kernelsDirOf(root: string, target: BackendTarget): string {
  return join(root, 'packages', target.dir, 'src/kernels');
}

/**
 * How an op runs on a backend: as its spec declares, else generated, else its kernel file where `hasKernel` says
 * there is one, else as the backend declares for an op it has no kernel for (a missing kernel file, for codegen to
 * name, where that is `missing`).
 */
export function dispatchOf(spec: LoadedSpec, target: BackendTarget, hasKernel: boolean): Dispatch {
  if (spec.kernel.dispatch?.[target.name] === 'js') return 'js';
  if (target.generates(spec)) return 'generated';
  return hasKernel || target.unported === 'missing' ? 'kernel' : 'js';
}

/** `dispatchOf` with the backend's kernel files as they are in the repository at `root`. */
export function dispatchIn(root: string, spec: LoadedSpec, target: BackendTarget): Dispatch {
  return dispatchOf(spec, target, existsSync(join(kernelsDirOf(root, target), `${spec.name}.ts`)));
}
