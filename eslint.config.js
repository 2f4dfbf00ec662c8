// ESLint: JavaScript's and typescript-eslint's recommended rules on our sources, tests, tools and AssemblyScript
// kernels. Generated code and build output are left out.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** The names AssemblyScript's standard library declares globally (i32, load, store, unchecked, v128...). */
function assemblyScriptGlobals() {
  const definitions = createRequire(import.meta.url).resolve('assemblyscript/std/assembly/index.d.ts');
  const names = readFileSync(definitions, 'utf8').matchAll(
    /^(?:declare )?(?:abstract )?(?:function|const|let|var|namespace|class|type|enum|interface) ([A-Za-z_$][\w$]*)/gm,
  );
  return Object.fromEntries([...names].map((m) => [m[1], 'readonly']));
}

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/generated/**', '**/node_modules/**', 'docs/**', 'bench/results/**', '.nx/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // A name starting with _ is deliberately unused (a parameter kept for its position).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  // AssemblyScript: TypeScript syntax with decorators on functions (@inline), which typescript-eslint reads once
  // told to keep such a tree; its own globals instead of Node's and the browser's, checked by no-undef (tsc never
  // sees these files: asc compiles them).
  {
    files: ['packages/kernels-as/assembly/**/*.ts'],
    languageOptions: {
      parserOptions: { allowInvalidAST: true },
      globals: assemblyScriptGlobals(),
    },
    rules: {
      'no-undef': 'error',
      // An integer literal is a 64-bit integer in AssemblyScript, exact where a JS number would not be.
      'no-loss-of-precision': 'off',
    },
  },
  // CommonJS files are CommonJS on purpose (the consumer test's require() of the package).
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
