import wasmPath from '@sparse/runtime/kernels.wasm';
import { runChecks } from './checks.js';

// esbuild's recipe: `--loader:.wasm=file` emits the file and gives its path, which the app hands to the runtime.
runChecks({ wasmPath }).then(
  (report) => (window.__report = report),
  (e) => (window.__report = { error: String(e?.stack ?? e) }),
);
