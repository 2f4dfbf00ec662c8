import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { VariableDeclarationKind } from 'ts-morph';
import { buildTsFile } from './ts-file.js';
import { camelCase } from './naming.js';
import { SpecError } from './spec-error.js';
import type { LoadedSpec } from './spec-types.js';

/**
 * `kernels-js/src/generated/registry.ts`: the kernel table of the JS backend. A hand-written kernel of op `x`
 * lives in `src/kernels/x.ts` and exports the function `camelCase(x)`; a spec without one is a codegen error.
 */
export function emitJsRegistry(specs: LoadedSpec[], kernelsDir: string): string {
  const missing = specs.filter((s) => !existsSync(join(kernelsDir, `${s.name}.ts`)));
  if (missing.length) {
    throw new SpecError(
      missing.map((s) => ({
        file: s.file,
        field: 'kernel',
        message: `the JS backend has no kernel for ${s.name}: write packages/kernels-js/src/kernels/${s.name}.ts exporting ${camelCase(s.name)}`,
      })),
    );
  }
  return buildTsFile('registry.ts', (f) => {
    f.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: './kernel-types.js', namedImports: ['KernelTable'] });
    for (const s of specs) {
      f.addImportDeclaration({ moduleSpecifier: `../kernels/${s.name}.js`, namedImports: [camelCase(s.name)] });
    }
    f.addVariableStatement({
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: ['Every op\'s JS kernel, keyed by op id.'],
      declarations: [
        {
          name: 'kernels',
          type: 'KernelTable',
          initializer: `{\n${specs.map((s) => `  ${s.name}: ${camelCase(s.name)},`).join('\n')}\n}`,
        },
      ],
    });
  });
}
