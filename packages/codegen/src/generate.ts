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
import { emitJsFamilyKernels } from './emit-js-kernels.js';
import { emitSourceCopy } from './emit-source-copy.js';
import { emitBackendTable } from './emit-backend-table.js';
import { BACKEND_TARGETS, kernelsDirOf, packageDirOf } from './backend-targets.js';
import { emitBackendLoaders } from './emit-backend-loaders.js';
import { emitTfjsApi } from './emit-tfjs-api.js';

const CODEGEN = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATES = join(CODEGEN, 'templates');

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
    [join(pkg('tfjs'), 'src/generated/ops.ts'), emitTfjsApi(specs)],
    [
      join(pkg('runtime'), 'src/generated/custom-checks.ts'),
      emitCustomChecks(specs, join(opts.root, pkg('runtime'), 'src/custom-checks')),
    ],
    [join(pkg('kernel-abi'), 'src/generated/kernel-types.ts'), emitKernelTypes(specs)],
    [join(pkg('kernel-abi'), 'src/generated/kernel-error.ts'), emitSourceCopy(join(CODEGEN, 'src/kernel-error.ts'))],
    // The float32 magnitudes the GPU backends bound subnormal steps with (kernel-abi's subnormal-bound.ts).
    [
      join(pkg('kernel-abi'), 'src/generated/magnitude.ts'),
      emitSourceCopy(join(CODEGEN, 'src/expr/magnitude-runtime.ts')),
    ],
    [
      join(pkg('kernels-js'), 'src/generated/registry.ts'),
      emitJsRegistry(specs, join(opts.root, pkg('kernels-js'), 'src/kernels')),
    ],
    ...BACKEND_TARGETS.flatMap((b) =>
      Object.entries({
        ...b.outputs(specs, packageDirOf(b)),
        'src/generated/kernel-table.ts': emitBackendTable(specs, b, kernelsDirOf(opts.root, b)),
      }).map(([file, text]) => [join(pkg(b.dir), file), text] as [string, string]),
    ),
    [join(pkg('conformance'), 'generated/cases.json'), emitCases(specs)],
    ['docs/ops.md', emitDocs(specs, join(TEMPLATES, 'docs/ops.md.hbs'), opts.root)],
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
  // The folders codegen owns, `generated` in every generated file's path: a file there that the specs no longer
  // make is deleted.
  const owned = new Set(
    [...files.keys()].flatMap((f) => {
      const parts = f.split('/');
      const at = parts.lastIndexOf('generated');
      return at < 0 ? [] : [parts.slice(0, at + 1).join('/')];
    }),
  );
  owned.forEach(walk);
  return out.sort();
}
