import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The arrows between and inside packages, read from the sources: each package's src imports only what its
// package.json declares; no kernel package imports the runtime (kernels speak plain data); and no module reaches
// itself through its own imports (a cycle makes module order decide what is defined). Type-only imports are
// erased at build time, so they make no arrow.

const ROOT = join(import.meta.dirname, '..');
const PACKAGES = readdirSync(join(ROOT, 'packages'));

/** The specifiers a module imports at run time: static and dynamic imports and re-exports, not `import type`. */
export function runtimeImports(source: string): string[] {
  const specs: string[] = [];
  for (const m of source.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
    const clause = (m[3] ?? '').replace(/\s+from\s+$/, '').trim();
    const names = /^\{([^}]*)\}$/
      .exec(clause)?.[1]
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    const typeOnly =
      m[2] !== undefined || (names !== undefined && names.length > 0 && names.every((n) => n.startsWith('type ')));
    if (!typeOnly) specs.push(m[4]);
  }
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  return specs;
}

function sourcesOf(pkg: string): string[] {
  const dir = join(ROOT, 'packages', pkg, 'src');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name));
}

const packageName = (spec: string) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];

describe('the import graph', () => {
  it('reads imports as they run: value imports and re-exports, dynamic imports, not type-only ones', () => {
    const src = `import { a } from './a.js';\nimport type { B } from './b.js';\nexport { c } from './c.js';\nexport type { D } from './d.js';\nimport { type E, type F } from './ef.js';\nconst g = await import('g');\nimport './side.js';`;
    expect(runtimeImports(src).sort()).toEqual(['./a.js', './c.js', './side.js', 'g']);
  });

  it('the types kernels speak come from @sparse/kernel-abi, never from a backend package', () => {
    const typeImports = PACKAGES.flatMap((pkg) =>
      sourcesOf(pkg).flatMap((file) =>
        [
          ...readFileSync(file, 'utf8').matchAll(
            /import\s+type\s+\{[^}]*\}\s+from\s+'(@sparse\/kernels-[a-z]+)[^']*'/g,
          ),
        ].map((m) => `${relative(ROOT, file)}: ${m[1]}`),
      ),
    );
    expect(typeImports).toEqual([]);
  });

  for (const pkg of PACKAGES) {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', pkg, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | string
    >;
    const declared = new Set([
      manifest.name as string,
      ...Object.keys({ ...(manifest.dependencies as object), ...(manifest.peerDependencies as object) }),
    ]);
    const files = sourcesOf(pkg);
    const edges = new Map<string, string[]>();
    for (const file of files) {
      const specs = runtimeImports(readFileSync(file, 'utf8'));
      edges.set(
        file,
        specs.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s).replace(/\.js$/, '.ts')),
      );
      for (const spec of specs.filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !s.startsWith('#'))) {
        it(`${pkg}: ${relative(ROOT, file)} imports ${spec}, which its package declares`, () => {
          expect(declared.has(packageName(spec))).toBe(true);
        });
      }
      if (pkg.startsWith('kernels-')) {
        it(`${pkg}: ${relative(ROOT, file)} does not import the runtime`, () => {
          expect(specs.filter((s) => s.startsWith('@sparse/runtime'))).toEqual([]);
        });
      }
    }
    it(`${pkg}: no module imports itself through a cycle`, () => {
      expect(cycles(edges).map((c) => c.map((f) => relative(ROOT, f)).join(' → '))).toEqual([]);
    });
  }
});

/** The cycles of a directed graph, each once (as found by depth-first search). */
function cycles(edges: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of edges.get(n) ?? []) {
      if (state.get(m) === 'open') found.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of edges.keys()) if (!state.has(n)) visit(n);
  return found;
}
