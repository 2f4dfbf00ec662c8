import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// The inner loop's tier (`npm run test:fast`, on a built workspace, about two minutes on two cores): the unit
// tests, every spec example on every backend and the gradient checks (a tenth of their runs), without the suites
// that pack and install the packages, build a copy of the workspace, regenerate every file, type-check with tsc,
// open browser pages, train on TF.js's webgpu backend, run the CLI, threads' failures or watched child processes, soak a service, or draw hundreds
// of random cases per op (properties, fuzz, float32 edges, wide dims). `npm test` runs everything.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        ...configDefaults.exclude,
        'tests/consumer/**',
        'tests/soak/**',
        'tests/{api-docs,import-graph}.test.ts',
        'examples/gcn/test/{page,gcn-webgpu}.test.ts',
        'packages/codegen/test/{generate,new-op}.test.ts',
        'packages/tfjs/test/types.test.ts',
        'packages/runtime/test/thread-failure.test.ts',
        'packages/conformance/test/{spec-only-op,browser,memory-watchdog,budgets,spgemm-budget}.test.ts',
        'packages/conformance/test/{cli,cli-gate,value-map-accuracy}.test.ts',
        'packages/conformance/test/{properties,fuzz,float32-edges,wide-dims}.test.ts',
      ],
      env: { GRADIENT_RUNS: '2' },
    },
  }),
);
