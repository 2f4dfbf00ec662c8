import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpecs } from './load-specs.js';
import { emitOpsMeta } from './emit-meta.js';
import { emitOpsApi } from './emit-api.js';
import { emitKernelTypes } from './emit-kernel-types.js';
import { emitJsRegistry } from './emit-registry.js';
import { emitCases } from './emit-cases.js';
import { emitDocs } from './emit-docs.js';
import { emitCustomChecks } from './emit-custom-checks.js';
import { emitAsFamilies, emitAsFamilyTable } from './emit-as-kernels.js';
import { emitGpuFamilies } from './emit-gpu-kernels.js';
import { emitJsFamilyKernels } from './emit-js-kernels.js';
import { emitSourceCopy } from './emit-source-copy.js';
import { emitAsErrorCodes } from './emit-error-codes.js';
import { emitBackendTable } from './emit-backend-table.js';
import { BACKEND_TARGETS } from './backend-targets.js';
import { emitBackendLoaders } from './emit-backend-loaders.js';

const CODEGEN = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATES = join(CODEGEN, 'templates');

/** The folders codegen owns: a file there that the specs no longer make is deleted. */
const GENERATED_DIRS = [
  'packages/kernel-abi/src/generated',
  'packages/runtime/src/generated',
  'packages/kernels-js/src/generated',
  'packages/kernels-as/src/generated',
  'packages/kernels-as/assembly/generated',
  'packages/kernels-gpu/src/generated',
  'packages/conformance/generated',
];

export interface GenerateOptions {
  /** The repository root (holds specs/ and packages/). */
  root: string;
  /** Where the specs are; default `<root>/specs`. */
  specsDir?: string;
  /** Compare instead of writing: the files that would change. */
  check?: boolean;
}

/** Every generated file of the repository, path (relative to root) → content. */
export function generatedFiles(opts: GenerateOptions): Map<string, string> {
  const specs = loadSpecs(opts.specsDir ?? join(opts.root, 'specs'), opts.root);
  const pkg = (p: string) => join('packages', p);
  const familyKernels = emitJsFamilyKernels(specs, join(TEMPLATES, 'js'));
  return new Map([
    ...[...familyKernels].map(
      ([file, text]) => [join(pkg('kernels-js'), 'src/generated/kernels', file), text] as [string, string],
    ),
    [
      join(pkg('kernels-js'), 'src/generated/expr-runtime.ts'),
      emitSourceCopy(join(CODEGEN, 'src/expr/js-runtime.ts'), { '../kernel-error.js': '@sparse/kernel-abi' }),
    ],
    [join(pkg('runtime'), 'src/generated/ops-meta.ts'), emitOpsMeta(specs)],
    [
      join(pkg('runtime'), 'src/generated/backend-loaders.ts'),
      emitBackendLoaders(join(opts.root, pkg('runtime'), 'package.json')),
    ],
    [join(pkg('runtime'), 'src/generated/spec-format.ts'), emitSourceCopy(join(CODEGEN, 'src/spec-format.ts'))],
    [join(pkg('runtime'), 'src/generated/ops-api.ts'), emitOpsApi(specs)],
    [
      join(pkg('runtime'), 'src/generated/custom-checks.ts'),
      emitCustomChecks(specs, join(opts.root, pkg('runtime'), 'src/custom-checks')),
    ],
    [join(pkg('kernel-abi'), 'src/generated/kernel-types.ts'), emitKernelTypes(specs)],
    [join(pkg('kernel-abi'), 'src/generated/kernel-error.ts'), emitSourceCopy(join(CODEGEN, 'src/kernel-error.ts'))],
    [join(pkg('kernels-as'), 'assembly/generated/error-codes.ts'), emitAsErrorCodes()],
    [
      join(pkg('kernels-js'), 'src/generated/registry.ts'),
      emitJsRegistry(specs, join(opts.root, pkg('kernels-js'), 'src/kernels')),
    ],
    [
      join(pkg('kernels-as'), 'assembly/generated/families.ts'),
      emitAsFamilies(specs, join(TEMPLATES, 'as/families.ts.hbs')),
    ],
    [join(pkg('kernels-as'), 'src/generated/family-ops.ts'), emitAsFamilyTable(specs, { gradients: true })],
    [
      join(pkg('kernels-gpu'), 'src/generated/families.ts'),
      emitGpuFamilies(specs, join(TEMPLATES, 'gpu/families.ts.hbs')),
    ],
    [
      join(pkg('kernels-gpu'), 'src/generated/int-range.ts'),
      emitSourceCopy(join(CODEGEN, 'src/expr/int-range-runtime.ts')),
    ],
    [
      join(pkg('kernels-gpu'), 'src/generated/magnitude.ts'),
      emitSourceCopy(join(CODEGEN, 'src/expr/magnitude-runtime.ts')),
    ],
    [join(pkg('kernels-gpu'), 'src/generated/family-ops.ts'), emitAsFamilyTable(specs, { gradients: false })],
    ...BACKEND_TARGETS.map(
      (b) =>
        [
          join(pkg(b.dir), 'src/generated/kernel-table.ts'),
          emitBackendTable(specs, b, join(opts.root, pkg(b.dir), 'src/kernels')),
        ] as [string, string],
    ),
    [join(pkg('conformance'), 'generated/cases.json'), emitCases(specs)],
    ['docs/ops.md', emitDocs(specs, join(TEMPLATES, 'docs/ops.md.hbs'))],
  ]);
}

/** Writes the generated files (or, with `check`, lists those that are stale); returns the paths written or stale. */
export function generate(opts: GenerateOptions): string[] {
  const changed: string[] = [];
  const files = generatedFiles(opts);
  for (const stale of staleFiles(opts.root, files)) {
    changed.push(stale);
    if (!opts.check) rmSync(join(opts.root, stale));
  }
  for (const [rel, content] of files) {
    const path = join(opts.root, rel);
    let old: string | undefined;
    try {
      old = readFileSync(path, 'utf8');
    } catch {
      old = undefined;
    }
    if (old === content) continue;
    changed.push(relative(opts.root, path));
    if (!opts.check) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
  }
  return changed;
}

function staleFiles(root: string, files: Map<string, string>): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const abs = join(root, rel);
    if (!existsSync(abs)) return;
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const child = join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (!files.has(child)) out.push(child);
    }
  };
  GENERATED_DIRS.forEach(walk);
  return out.sort();
}
