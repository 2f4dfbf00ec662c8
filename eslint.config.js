// ESLint: JavaScript's and typescript-eslint's recommended rules on our sources, tests and tools. Generated code,
// build output and the AssemblyScript kernels (asc checks those; ESLint cannot parse their decorators) are left out.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/generated/**',
      '**/node_modules/**',
      'packages/kernels-as/assembly/**',
      'docs/**',
      'bench/results/**',
      '.nx/**',
    ],
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
  // CommonJS files are CommonJS on purpose (the consumer test's require() of the package).
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
