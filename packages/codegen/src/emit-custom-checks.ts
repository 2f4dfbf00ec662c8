import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { VariableDeclarationKind } from 'ts-morph';
import { buildTsFile } from './ts-file.js';
import { camelCase } from './naming.js';
import { SpecError } from './spec-error.js';
import type { LoadedSpec } from './spec-types.js';

/**
 * `runtime/src/generated/custom-checks.ts`: the op-specific checks specs name (`rule: custom`), each written once
 * in `runtime/src/custom-checks/<name>.ts` exporting `camelCase(name)`, so every backend gets the same errors.
 */
export function emitCustomChecks(specs: LoadedSpec[], checksDir: string): string {
  const users = new Map<string, LoadedSpec>();
  for (const s of specs)
    for (const c of s.checks ?? []) if (c.rule === 'custom' && !users.has(c.name)) users.set(c.name, s);
  const names = [...users.keys()].sort();
  const missing = names.filter((n) => !existsSync(join(checksDir, `${n}.ts`)));
  if (missing.length) {
    throw new SpecError(
      missing.map((n) => ({
        file: users.get(n)!.file,
        field: 'checks',
        message: `no custom check '${n}': write packages/runtime/src/custom-checks/${n}.ts exporting ${camelCase(n)}(op, args)`,
      })),
    );
  }
  return buildTsFile('custom-checks.ts', (f) => {
    f.addImportDeclaration({
      isTypeOnly: true,
      moduleSpecifier: '../custom-checks/custom-check.js',
      namedImports: ['CustomCheck'],
    });
    for (const n of names)
      f.addImportDeclaration({ moduleSpecifier: `../custom-checks/${n}.js`, namedImports: [camelCase(n)] });
    f.addVariableStatement({
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: ['Every custom check a spec names, keyed by name.'],
      declarations: [
        {
          name: 'CUSTOM_CHECKS',
          type: 'Readonly<Record<string, CustomCheck>>',
          initializer: `{\n${names.map((n) => `  ${n}: ${camelCase(n)},`).join('\n')}\n}`,
        },
      ],
    });
  });
}
