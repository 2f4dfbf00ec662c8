import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BackendTarget, TargetDeclaration } from './backend-target.js';
import { emitAsErrorCodes } from './emit-error-codes.js';
import { emitAsFamilies, emitAsFamilyTable } from './emit-as-kernels.js';
import { emitGpuFamilies } from './emit-gpu-kernels.js';
import { emitSourceCopy } from './emit-source-copy.js';
import type { LoadedSpec } from './spec-types.js';

const CODEGEN = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATES = join(CODEGEN, 'templates');
const SRC = join(CODEGEN, 'src');
const PACKAGES = join(CODEGEN, '..');
/** Where codegen's build compiles the backends' declarations (tsconfig.targets.json). */
const COMPILED_TARGETS = join(CODEGEN, 'dist/targets');

export type { BackendTarget } from './backend-target.js';

/** The backends whose generators live here, in codegen (wasm's and gpu's lowerings are in expr/functions.ts). */
const BUILT_IN: readonly BackendTarget[] = [
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
];

/**
 * The backends declared by their own packages: each `packages/<dir>/codegen/target.ts` exports `target`, its
 * generator beside it. Adding such a backend is its package, with nothing listed here.
 */
async function declaredTargets(): Promise<BackendTarget[]> {
  const dirs = readdirSync(PACKAGES)
    .filter((dir) => existsSync(join(PACKAGES, dir, 'codegen/target.ts')))
    .sort();
  const targets: BackendTarget[] = [];
  for (const dir of dirs) {
    const compiled = join(COMPILED_TARGETS, dir, 'codegen/target.js');
    if (!existsSync(compiled))
      throw new Error(`packages/${dir}/codegen/target.ts is not compiled: build @sparse/codegen (npm run build)`);
    const { target } = (await import(pathToFileURL(compiled).href)) as { target: TargetDeclaration };
    targets.push({ ...target, dir });
  }
  return targets;
}

/** Every backend besides js: the built-in ones, then those their packages declare. */
export const BACKEND_TARGETS: readonly BackendTarget[] = [...BUILT_IN, ...(await declaredTargets())];

export const BACKEND_NAMES = BACKEND_TARGETS.map((b) => b.name);

/** How an op runs on a backend: a generated family kernel, its own hand-written kernel, or the JS kernel. */
export type Dispatch = 'generated' | 'kernel' | 'js';

/** A backend's package folder in this workspace (where its templates are: not under a generate call's root). */
export function packageDirOf(target: BackendTarget): string {
  return join(PACKAGES, target.dir);
}

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
