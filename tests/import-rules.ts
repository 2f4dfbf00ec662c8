import { readFileSync, readdirSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

// The rules the import graph keeps, read from the sources with TypeScript's parser (so an import written inside a
// string, such as a test page's script, is not taken for one of the module's own).

/** One import of a module: its specifier, and whether it is erased at build time (`import type`, `export type`). */
export interface Import {
  spec: string;
  typeOnly: boolean;
}

/** Every import of a module: static imports and re-exports, dynamic imports, require() calls. */
export function importsOf(source: string, fileName = 'module.ts'): Import[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false);
  const found: Import[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push({ spec: node.moduleSpecifier.text, typeOnly: isTypeOnly(node) });
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments.length > 0 &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push({ spec: node.arguments[0].text, typeOnly: false });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node))
    return (
      node.isTypeOnly ||
      (!!node.exportClause &&
        ts.isNamedExports(node.exportClause) &&
        node.exportClause.elements.length > 0 &&
        node.exportClause.elements.every((e) => e.isTypeOnly))
    );
  const clause = node.importClause;
  if (!clause) return false; // `import './side-effect.js'`
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    !clause.name &&
    !!named &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}

/** The specifiers a module imports at run time: what is left once type-only imports are erased. */
export function runtimeImports(source: string): string[] {
  return importsOf(source)
    .filter((i) => !i.typeOnly)
    .map((i) => i.spec);
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
export const packageName = (spec: string) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  imports?: Record<string, unknown>;
}

/** The TypeScript and JavaScript modules under a folder of a package (none if it has no such folder). */
export function modulesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile() && /\.(ts|mts|cts|js|mjs|cjs)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/**
 * What breaks the rules in one package, one line each (none: it keeps them). Its sources (src/, and bin/ where it
 * ships a command) import only the packages its package.json gives as dependencies or peerDependencies (what an
 * installed package has); its tests (test/) and build scripts (scripts/) may add its devDependencies; all reach
 * other files only inside the package, but that build scripts may use the repository's own tools (tools/). A
 * backend's code generator (codegen/, compiled and run by @sparse/codegen) imports only codegen's backend kit. A
 * kernel package (kernels-*) never imports the runtime: the runtime depends
 * on the kernels, so that arrow would close a cycle. What ships never reaches into a backend's insides (a subpath
 * of a kernels-* package other than its browser build): what backends share lives in @sparse/kernel-abi.
 * Type-only imports count: a published type that names an undeclared package breaks its users' type check too.
 */
export function importViolations(packageDir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Manifest;
  const shipped = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const forTests = new Set([...shipped, ...Object.keys(manifest.devDependencies ?? {})]);
  const isKernelPackage = /^kernels-/.test(packageDir.split(sep).at(-1)!);
  const problems: string[] = [];
  for (const [folder, declared] of [
    ['src', shipped],
    ['bin', shipped],
    ['scripts', forTests],
    ['test', forTests],
    ['codegen', new Set(['@sparse/codegen'])],
  ] as const) {
    for (const file of modulesUnder(join(packageDir, folder))) {
      const where = relative(packageDir, file);
      for (const { spec } of importsOf(readFileSync(file, 'utf8'), file)) {
        if (isBuiltin(spec)) continue;
        if (spec.startsWith('.')) {
          const target = resolve(dirname(file), spec);
          if (
            relative(packageDir, target).startsWith('..') &&
            !(folder === 'scripts' && isRepoTool(packageDir, target))
          )
            problems.push(`${where} imports ${spec}, outside its package`);
        } else if (spec.startsWith('#')) {
          if (!Object.hasOwn(manifest.imports ?? {}, spec))
            problems.push(`${where} imports ${spec}, which its package.json's imports do not map`);
        } else if (folder === 'codegen' && spec !== '@sparse/codegen/backend-kit') {
          problems.push(`${where} imports ${spec}: a backend's generator builds on @sparse/codegen/backend-kit only`);
        } else if (!declared.has(packageName(spec))) {
          problems.push(`${where} imports ${spec}, which its package.json does not declare for ${folder}/`);
        }
        if (isKernelPackage && packageName(spec) === '@sparse/runtime')
          problems.push(`${where} imports the runtime from a kernel package`);
        if (folder !== 'test' && reachesIntoBackend(spec, manifest.name))
          problems.push(`${where} imports ${spec}, inside a backend: share it through @sparse/kernel-abi`);
      }
    }
  }
  return problems;
}

/** Whether a specifier names a module inside another backend package (a subpath but its browser build). */
function reachesIntoBackend(spec: string, self: string): boolean {
  const name = packageName(spec);
  if (!/^@sparse\/kernels-[a-z]+$/.test(name) || name === self || spec === name) return false;
  return spec.slice(name.length) !== '/browser';
}

/** Whether a file is one of the repository's build tools (tools/ beside packages/). */
function isRepoTool(packageDir: string, file: string): boolean {
  return !relative(resolve(packageDir, '../../tools'), file).startsWith('..');
}
