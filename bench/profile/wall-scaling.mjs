// Question 1, by the clock: time per stored entry at each scaling point, outside valgrind, for the rows the
// counts cover (the native loop as the bench builds it, our backends through the op-loop worker).
import { join } from 'node:path';
import { scalingData } from './lib/data.mjs';
import { HERE, buildNative, run, runNative } from './lib/tools.mjs';

/** {native: {nnz: ms}, node: {'wasm spmm': {nnz: ms}}, notes}: medians of a few calls after warm-up. */
export function wallScaling(work, tools, { nativeSizes, nodeSizes, nodeRuns, log }) {
  const notes = [];
  const native = {};
  if (tools.gxx.ok) {
    const { exe } = buildNative(join(work, 'spmm-native'));
    for (const t of nativeSizes) {
      const d = scalingData(work, t);
      log(`wall native ${d.nnz}`);
      native[d.nnz] = runNative(exe, d.dir, d.m, d.k, d.n, d.nnz, 10, 300).median_ms;
    }
  }
  const node = {};
  for (const [backend, op] of nodeRuns) {
    const key = `${backend} ${op}`;
    node[key] = {};
    for (const t of nodeSizes) {
      const d = scalingData(work, t);
      log(`wall ${key} ${d.nnz}`);
      const r = run(process.execPath, [
        join(HERE, 'workers', 'op-loop.mjs'),
        backend,
        op,
        JSON.stringify(d),
        '0.3s',
        '2',
      ]);
      if (r.ok) node[key][d.nnz] = JSON.parse(r.stdout).median_ms;
      else notes.push(`${key} at ${d.nnz}: ${r.stderr.trim().split('\n').pop()}`);
    }
  }
  return { native, node, notes };
}
