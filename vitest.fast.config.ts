import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// The inner loop's tier (`npm run test:fast`, on a built workspace): every suite but those that pack and install
// the packages, build a copy of the workspace, open browser pages, watch memory in child processes or soak a
// service; the property, fuzz and gradient suites at a tenth of their runs. `npm test` runs everything.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        ...configDefaults.exclude,
        'tests/consumer/**',
        'tests/soak/**',
        'packages/conformance/test/spec-only-op.test.ts',
        'packages/conformance/test/browser.test.ts',
        'packages/conformance/test/memory-watchdog.test.ts',
        'examples/gcn/test/page.test.ts',
      ],
      env: { PROPERTY_RUNS: '30', FUZZ_RUNS: '10', GRADIENT_RUNS: '2' },
    },
  }),
);
