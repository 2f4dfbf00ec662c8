import { runChecks } from './checks.js';

// The page of a bundled app (Vite, webpack, esbuild): the kernels.wasm the bundler emitted, found by default.
runChecks().then(
  (report) => (window.__report = report),
  (e) => (window.__report = { error: String(e?.stack ?? e) }),
);
