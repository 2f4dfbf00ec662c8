// Questions 2 and 3, by instruction and miss counts: one headline SpMM call (A 4096×4096 at 1%, B 4096×128) as
// cachegrind counts it, for the native loop, the wasm multiply export alone, the whole wasm call and the whole
// JS call. Per multiply-add (nnz × n of them), the instruction counts say how much work each does for the same
// arithmetic; the L2 misses say how much of it waits on memory.
import { join } from 'node:path';
import { perCall } from './lib/cachegrind.mjs';
import { nodeWorker } from './lib/node-under-valgrind.mjs';
import { buildNative } from './lib/tools.mjs';

/** [{name, counts: {total, byCategory}}] per call, plus notes. */
export async function headlineCounts(meta, work, tools, { log }) {
  const { m, k, n, nnz, dir } = meta;
  const rows = [];
  const notes = [];
  const metaJson = JSON.stringify(meta);
  const jobs = [];
  if (tools.gxx.ok) {
    const { exe, flags } = buildNative(join(work, 'spmm-native-vg'), true);
    jobs.push([
      `native C++ loop (${flags})`,
      exe,
      () => (calls) => [dir, m, k, n, nnz, calls, 0].map(String),
      { lo: 1, hi: 2 },
    ]);
  } else notes.push(`native loop not counted: ${tools.gxx.reason}`);
  // Node runs span several calls so that V8's lumpy costs (a GC now and then) average out.
  jobs.push([
    'wasm: spmm_float32 export alone',
    'node',
    () => nodeWorker('wasm-stage.mjs', ['multiply', metaJson]),
    { lo: 1, hi: 9 },
  ]);
  jobs.push([
    'wasm: whole call (rt.run)',
    'node',
    () => nodeWorker('op-loop.mjs', ['wasm', 'spmm', metaJson]),
    { lo: 1, hi: 9 },
  ]);
  jobs.push([
    'js: whole call (rt.run)',
    'node',
    () => nodeWorker('op-loop.mjs', ['js', 'spmm', metaJson]),
    { lo: 1, hi: 3 },
  ]);
  for (const [name, cmd, argsFor, span] of jobs) {
    log(`cachegrind headline: ${name}`);
    try {
      rows.push({ name, counts: await perCall(cmd, argsFor(), work, span) });
    } catch (e) {
      notes.push(`${name}: ${String(e.message).split('\n')[0]}`);
    }
  }
  return { macs: nnz * n, rows, notes };
}
