import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'tests/**/*.test.ts', 'examples/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    // Two files at a time even on two cores: the longest suites mostly wait on child processes (builds, npm,
    // browsers, the soak's service), and vitest's default of cores - 1 would run every file in turn.
    maxWorkers: 2,
  },
});
