import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// The inner loop's tier (`npm run test:fast`, on a built workspace, under two minutes on two cores): every suite
// but those that pack and install the packages, build a copy of the workspace, regenerate every file, open browser
// pages, run the CLI or watched child processes, or soak a service; the property, fuzz and gradient suites at a
// fraction of their runs. `npm test` runs everything.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        ...configDefaults.exclude,
        'tests/consumer/**',
        'tests/soak/**',
        'tests/api-docs.test.ts',
        'examples/gcn/test/page.test.ts',
        'packages/codegen/test/generate.test.ts',
        'packages/conformance/test/{spec-only-op,browser,memory-watchdog,budgets,spgemm-budget}.test.ts',
        'packages/conformance/test/{cli,cli-gate,value-map-accuracy}.test.ts',
      ],
      env: { PROPERTY_RUNS: '20', FUZZ_RUNS: '10', GRADIENT_RUNS: '2' },
    },
  }),
);
