import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importViolations, importsOf, modulesUnder, runtimeImports } from './import-rules.js';

// The arrows between and inside packages, read from the sources and the tests: each package imports only what its
// package.json declares (tests may add its devDependencies) and reaches no file outside itself; no kernel package
// imports the runtime (kernels speak plain data); and no module reaches itself through its own imports (a cycle
// makes module order decide what is defined). Type-only imports are erased at build time, so they make no cycle.

const ROOT = join(import.meta.dirname, '..');
const PACKAGES = readdirSync(join(ROOT, 'packages'));

describe('the import graph', () => {
  it('reads imports as they run: value imports and re-exports, dynamic imports, not type-only ones', () => {
    const src = `import { a } from './a.js';\nimport type { B } from './b.js';\nexport { c } from './c.js';\nexport type { D } from './d.js';\nimport { type E, type F } from './ef.js';\nconst g = await import('g');\nimport './side.js';`;
    expect(runtimeImports(src).sort()).toEqual(['./a.js', './c.js', './side.js', 'g']);
  });

  it('reads every import, type-only ones too, and none written inside a string', () => {
    const src = `import type { A } from 'a';\nconst r = require('r');\nconst page = \`<script type="module">\n  import { x } from '/page.js';\n</script>\`;`;
    expect(importsOf(src)).toEqual([
      { spec: 'a', typeOnly: true },
      { spec: 'r', typeOnly: false },
    ]);
  });

  describe('finds each kind of violation in a package that has them', () => {
    const fake = join(mkdtempSync(join(tmpdir(), 'sparse-import-rules-')), 'kernels-fake');
    afterAll(() => rmSync(dirname(fake), { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(fake, path)), { recursive: true });
      writeFileSync(join(fake, path), text);
    };
    write(
      'package.json',
      JSON.stringify({
        name: '@sparse/kernels-fake',
        dependencies: { '@sparse/kernel-abi': '0.1.0', '@sparse/kernels-js': '0.1.0' },
        devDependencies: { vitest: '4.1.12', '@sparse/runtime': '0.1.0' },
      }),
    );
    write(
      'src/index.ts',
      `import { a } from '@sparse/kernel-abi';\nimport { b } from 'vitest';\nimport './local.js';\n`,
    );
    write('src/local.ts', `import type { T } from 'undeclared-types';\n`);
    write(
      'src/plans.ts',
      `import { kernels } from '@sparse/kernels-js';\nimport { p } from '@sparse/kernels-js/internals';\n`,
    );
    write('scripts/bundle.mjs', `import { it } from 'vitest';\nimport { x } from '../../elsewhere/x.js';\n`);
    write(
      'test/x.test.ts',
      `import { it } from 'vitest';\nimport { rng } from '../../../tools/seeded-random.js';\nimport { createRuntime } from '@sparse/runtime';\nimport { k } from '../src/index.js';\nimport fc from 'fast-check';\nimport { readFileSync } from 'node:fs';\nimport { join } from 'path';\n`,
    );
    write(
      'codegen/target.ts',
      `import { join } from 'node:path';\nimport { tsHeader } from '@sparse/codegen/backend-kit';\nimport { emitX } from './emit-x.js';\nimport { plans } from '@sparse/kernel-abi';\nimport { y } from '@sparse/codegen';\n`,
    );
    const found = importViolations(fake);

    it('a source importing a devDependency, or a package it does not declare (a type-only import too)', () => {
      expect(found).toContain('src/index.ts imports vitest, which its package.json does not declare for src/');
      expect(found).toContain(
        'src/local.ts imports undeclared-types, which its package.json does not declare for src/',
      );
    });

    it('a test importing a file outside its package, or a package it does not declare', () => {
      expect(found).toContain('test/x.test.ts imports ../../../tools/seeded-random.js, outside its package');
      expect(found).toContain('test/x.test.ts imports fast-check, which its package.json does not declare for test/');
    });

    it('a kernel package importing the runtime, even from a test and even when declared', () => {
      expect(found).toContain('test/x.test.ts imports the runtime from a kernel package');
    });

    it("shipped code reaching into another backend's insides, and a build script reaching outside its package", () => {
      expect(found).toContain(
        'src/plans.ts imports @sparse/kernels-js/internals, inside a backend: share it through @sparse/kernel-abi',
      );
      expect(found).toContain('scripts/bundle.mjs imports ../../elsewhere/x.js, outside its package');
    });

    it("a backend's code generator importing anything but codegen's backend kit (a dependency of its package too)", () => {
      for (const spec of ['@sparse/kernel-abi', '@sparse/codegen'])
        expect(found).toContain(
          `codegen/target.ts imports ${spec}: a backend's generator builds on @sparse/codegen/backend-kit only`,
        );
    });

    it('nothing else: declared packages, files inside the package and Node built-ins pass', () => {
      expect(found).toHaveLength(9);
    });
  });

  it('the types kernels speak come from @sparse/kernel-abi, never from a backend package', () => {
    const typeImports = PACKAGES.flatMap((pkg) =>
      modulesUnder(join(ROOT, 'packages', pkg, 'src')).flatMap((file) =>
        importsOf(readFileSync(file, 'utf8'), file)
          .filter((i) => i.typeOnly && /^@sparse\/kernels-[a-z]+/.test(i.spec))
          .map((i) => `${relative(ROOT, file)}: ${i.spec}`),
      ),
    );
    expect(typeImports).toEqual([]);
  });

  for (const pkg of PACKAGES) {
    it(`${pkg}: its sources and tests import only what its package declares, and nothing outside it`, () => {
      expect(importViolations(join(ROOT, 'packages', pkg))).toEqual([]);
    });

    it(`${pkg}: no module imports itself through a cycle`, () => {
      const edges = new Map<string, string[]>();
      for (const file of modulesUnder(join(ROOT, 'packages', pkg, 'src'))) {
        edges.set(
          file,
          runtimeImports(readFileSync(file, 'utf8'))
            .filter((s) => s.startsWith('.'))
            .map((s) => resolve(dirname(file), s).replace(/\.js$/, '.ts')),
        );
      }
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
