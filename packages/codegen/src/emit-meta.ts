import { VariableDeclarationKind } from 'ts-morph';
import { buildTsFile } from './ts-file.js';
import type { LoadedSpec } from './spec-types.js';

/** `runtime/src/generated/ops-meta.ts`: what the runtime needs of each spec to bind, check and dispatch. */
export function emitOpsMeta(specs: LoadedSpec[]): string {
  const meta = Object.fromEntries(
    specs.map((s) => [
      s.name,
      {
        name: s.name,
        apiName: s.apiName,
        family: s.kernel.family,
        dtypes: s.dtypes,
        args: s.args.map((a) => ({
          name: a.name,
          type: a.type,
          ...(a.dtype !== undefined && { dtype: a.dtype }),
          ...(a.default !== undefined && { default: a.default }),
          aliases: a.aliases ?? [],
          ...(a.bounds === 'except_last' && { bounds: a.bounds }),
        })),
        outputs: s.outputs.map((o) => ({ name: o.name, type: o.type, dtype: o.dtype, shape: o.shape })),
        checks: s.checks ?? [],
      },
    ]),
  );
  return buildTsFile('ops-meta.ts', (f) => {
    f.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: '../op-meta.js', namedImports: ['OpMeta'] });
    f.addVariableStatement({
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: ['Every op of specs/, keyed by op id.'],
      declarations: [
        { name: 'OPS', type: 'Readonly<Record<string, OpMeta>>', initializer: JSON.stringify(meta, null, 2) },
      ],
    });
  });
}
