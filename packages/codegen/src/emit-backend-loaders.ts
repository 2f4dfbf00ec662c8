import { readFileSync } from 'node:fs';
import { buildTsFile } from './ts-file.js';
import { BACKEND_TARGETS } from './backend-targets.js';

/**
 * `runtime/src/generated/backend-loaders.ts`: how the runtime loads each backend besides js, on first use. A
 * backend the runtime depends on is imported by name, so that bundlers include it; any other is an optional
 * install, loaded where it is present (optional-backend.ts says how to get it where it is not).
 */
export function emitBackendLoaders(runtimePackageJson: string): string {
  const deps = JSON.parse(readFileSync(runtimePackageJson, 'utf8')).dependencies ?? {};
  return buildTsFile('backend-loaders.ts', (f) => {
    f.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: '../backend.js', namedImports: ['BackendLoader'] });
    const optional = BACKEND_TARGETS.filter((b) => !Object.hasOwn(deps, b.package));
    if (optional.length)
      f.addImportDeclaration({ moduleSpecifier: '../optional-backend.js', namedImports: ['loadOptionalBackend'] });
    const entries = BACKEND_TARGETS.map((b) => {
      const source = b.passes ? `options.${b.passes.source}` : '';
      const rest = b.passes ? `{ ${b.passes.options.map((o) => `${o}: options.${o}`).join(', ')} }` : '';
      // An optional install is made from its source alone (loadOptionalBackend passes one argument).
      return Object.hasOwn(deps, b.package)
        ? `  ${b.name}: async (options) => (await import('${b.package}')).${b.factory}(${[source, rest].filter(Boolean).join(', ')}),`
        : `  ${b.name}: (${source ? 'options' : ''}) => loadOptionalBackend('${b.name}', '${b.package}', '${b.factory}', ${source || 'undefined'}),`;
    });
    f.addStatements([
      `/** Every backend besides js, by name: loaded when a runtime first asks for it. */`,
      `export const BACKEND_LOADERS: Record<string, BackendLoader> = {\n${entries.join('\n')}\n};`,
      `/** The backends among them that take the \`threads\` option. */`,
      `export const THREADED_BACKENDS: readonly string[] = [${BACKEND_TARGETS.filter((b) =>
        b.passes?.options.includes('threads'),
      )
        .map((b) => `'${b.name}'`)
        .join(', ')}];`,
    ]);
  });
}
