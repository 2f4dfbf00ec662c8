import { VariableDeclarationKind } from 'ts-morph';
import { buildTsFile } from './ts-file.js';
import { camelCase } from './naming.js';
import { matchKernelFiles } from './kernel-files.js';
import { dispatchOf, type BackendTarget } from './backend-targets.js';
import type { LoadedSpec } from './spec-types.js';

/**
 * `<backend>/src/generated/kernel-table.ts`: the backend's hand-written kernels (`src/kernels/<op id>.ts`,
 * exporting `camelCase(op id)`) and the ops it runs on the JS kernels, from each spec's `kernel.dispatch` and the
 * files present. Nothing else lists them: an op without a kernel on the backend must say `dispatch: {<backend>: js}`,
 * and a kernel file that no spec calls for is an error.
 */
export function emitBackendTable(specs: LoadedSpec[], target: BackendTarget, kernelsDir: string): string {
  const { own, delegated } = matchKernelFiles(
    specs,
    {
      label: target.name,
      rel: `packages/${target.dir}/src/kernels`,
      dispatchOf: (s, hasKernel) => dispatchOf(s, target, hasKernel),
      delegation: `dispatch: {${target.name}: js}`,
    },
    kernelsDir,
  );
  return buildTsFile('kernel-table.ts', (f) => {
    f.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: '@sparse/kernel-abi', namedImports: ['KernelTable'] });
    // Every backend's src/kernel.ts says what a hand-written kernel of op K is, for its own context.
    f.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: '../kernel.js', namedImports: ['KernelFactory'] });
    for (const s of own)
      f.addImportDeclaration({ moduleSpecifier: `../kernels/${s.name}.js`, namedImports: [camelCase(s.name)] });
    f.addVariableStatement({
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [`The ${target.name} backend's hand-written kernels, by op id.`],
      declarations: [
        {
          name: 'HAND_WRITTEN',
          // Typed per op: a kernel file whose signature is not its op's does not compile.
          initializer: `{\n${own.map((s) => `  ${s.name}: ${camelCase(s.name)},`).join('\n')}\n} satisfies { [K in keyof KernelTable]?: KernelFactory<K> }`,
        },
      ],
    });
    f.addVariableStatement({
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [
        `The ops that run on the JS kernels on the ${target.name} backend: its specs say so (\`dispatch: {${target.name}: js}\`)${target.unported === 'js' ? ', or the backend has no kernel of its own for them' : ''}.`,
      ],
      declarations: [
        {
          name: 'JS_DISPATCHED',
          type: 'readonly string[]',
          initializer: `[${delegated.map((n) => `'${n}'`).join(', ')}]`,
        },
      ],
    });
  });
}
