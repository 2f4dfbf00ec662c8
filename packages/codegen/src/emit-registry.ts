import { VariableDeclarationKind } from 'ts-morph';
import { buildTsFile } from './ts-file.js';
import { camelCase } from './naming.js';
import { matchKernelFiles } from './kernel-files.js';
import type { LoadedSpec } from './spec-types.js';

/**
 * `kernels-js/src/generated/registry.ts`: the kernel table of the JS backend. The kernel of an expression-family
 * op is generated (`generated/kernels/x.ts`); any other op's is hand-written in `src/kernels/x.ts`, exporting
 * `camelCase(x)`. A hand-written op without its file, a generated one with a stale file, or a file of no op is a
 * codegen error.
 */
export function emitJsRegistry(specs: LoadedSpec[], kernelsDir: string): string {
  matchKernelFiles(
    specs,
    {
      label: 'JS',
      rel: 'packages/kernels-js/src/kernels',
      dispatchOf: (s) => (s.compiled || s.derived ? 'generated' : 'kernel'),
    },
    kernelsDir,
  );
  return buildTsFile('registry.ts', (f) => {
    f.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: '@sparse/kernel-abi', namedImports: ['KernelTable'] });
    for (const s of specs) {
      const from = s.compiled || s.derived ? `./kernels/${s.name}.js` : `../kernels/${s.name}.js`;
      f.addImportDeclaration({ moduleSpecifier: from, namedImports: [camelCase(s.name)] });
    }
    f.addVariableStatement({
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: ["Every op's JS kernel, keyed by op id."],
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
