// Question 1, by counts: instructions and simulated cache misses per stored entry as the scaling run's data grow
// (A m×m with ~8 per row, B m×16; the bench's own matrices). The algorithms are linear, so instructions per entry
// should stay flat; misses per entry grow once B and the index arrays outgrow the caches.
import { join } from 'node:path';
import { cacheModel, perCall } from './lib/cachegrind.mjs';
import { scalingData } from './lib/data.mjs';
import { nodeWorker } from './lib/node-under-valgrind.mjs';
import { buildNative } from './lib/tools.mjs';

/**
 * {model, native: [{nnz, m, counts}], node: {'wasm spmm': [...], ...}, notes}. `nativeSizes` and `nodeSizes`
 * are scaling targets; `nodeRuns` the [backend, op] pairs to count under node.
 */
export async function cacheScaling(work, tools, { nativeSizes, nodeSizes, nodeRuns, log }) {
  const notes = [];
  const native = [];
  if (tools.gxx.ok) {
    const { exe, flags } = buildNative(join(work, 'spmm-native-vg'), true);
    notes.push(
      `native loop built with g++ ${flags} (valgrind cannot decode AVX-512; the bench's build differs only in vector width)`,
    );
    for (const t of nativeSizes) {
      const d = scalingData(work, t);
      log(`cachegrind native ${d.nnz}`);
      native.push({
        nnz: d.nnz,
        m: d.m,
        counts: await perCall(exe, (calls) => [d.dir, d.m, d.k, d.n, d.nnz, calls, 0].map(String), work, {
          lo: 1,
          hi: 2,
        }),
      });
    }
  } else notes.push(`native loop not counted: ${tools.gxx.reason}`);
  const node = {};
  for (const [backend, op] of nodeRuns) {
    const key = `${backend} ${op}`;
    node[key] = [];
    for (const t of nodeSizes) {
      const d = scalingData(work, t);
      log(`cachegrind ${key} ${d.nnz}`);
      try {
        // More calls between the two runs where calls are cheap: V8's lumpy costs (a GC now and then) average out.
        const span = Math.min(50, Math.max(2, Math.round(3e6 / d.nnz)));
        node[key].push({
          nnz: d.nnz,
          m: d.m,
          span,
          counts: await perCall('node', nodeWorker('op-loop.mjs', [backend, op, JSON.stringify(d)]), work, {
            lo: 1,
            hi: 1 + span,
          }),
        });
      } catch (e) {
        notes.push(`${key} at ${d.nnz}: ${String(e.message).split('\n')[0]}`);
      }
    }
  }
  return { model: cacheModel().text, native, node, notes };
}
