// Cold start: the first calls in a fresh process against the same process's steady state. Each run is a new Node
// process (lib/cold-worker.mjs) that loads the runtime, makes the backend (timed: the wasm backend compiles its
// module and warms itself up here), builds the data, then times its first calls one by one. Reported per case, as
// medians over the processes: the first call, the median of the first 10, and the steady state (the median of the
// second half of the same process's calls); with each result dropped (an app that lets the garbage collector free
// them) and, for wasm, disposed as soon as it is made.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DISPOSED_OPS } from './ops.mjs';

const WORKER = join(dirname(fileURLToPath(import.meta.url)), '..', 'lib', 'cold-worker.mjs');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function run(job) {
  const out = execFileSync(process.execPath, [WORKER, JSON.stringify(job)], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    timeout: 600_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out.trim().split('\n').at(-1));
}

/** Runs `job` in `processes` fresh processes and sums them up (medians over the processes). */
function measureCold(job, processes) {
  const runs = [];
  for (let i = 0; i < processes; i++) runs.push(run(job));
  const steady = runs.map((r) => median(r.times.slice(Math.floor(r.times.length / 2))));
  const first = runs.map((r) => r.times[0]);
  const first10 = runs.map((r) => median(r.times.slice(0, 10)));
  const s = median(steady);
  return {
    processes,
    calls: job.calls,
    import_ms: median(runs.map((r) => r.import_ms)),
    create_ms: median(runs.map((r) => r.create_ms)),
    first_ms: median(first),
    first10_ms: median(first10),
    steady_ms: s,
    first_over_steady: median(first) / s,
    first10_over_steady: median(first10) / s,
    // Every process's calls, for latest.json.
    times: runs.map((r) => r.times.map((t) => Number(t.toFixed(3)))),
  };
}

export async function coldStart(ctx) {
  const { config, ours } = ctx;
  const { spmm, processes, calls, ops } = config.cold;
  const backends = ours.map((o) => o.name);
  const rows = [];
  for (const backend of backends) {
    for (const { m, n } of spmm) {
      for (const dispose of backend === 'wasm' ? [false, true] : [false]) {
        const job = { backend, kind: 'spmm', m, n, calls, dispose };
        process.stderr.write(`cold start: ${backend} spmm ${m}² n=${n}${dispose ? ', disposed' : ''}\n`);
        try {
          rows.push({
            backend,
            op: 'sparse_tensor_dense_matmul',
            size: `A ${m}×${m} at 1%, B ${m}×${n}`,
            dispose,
            ...measureCold(job, processes),
          });
        } catch (e) {
          rows.push({
            backend,
            op: 'sparse_tensor_dense_matmul',
            size: `${m}² n=${n}`,
            dispose,
            error: String(e.message).split('\n')[0],
          });
        }
      }
    }
  }
  // The 10^6-entry ops on wasm: the first call also prepares its operands (checks, copies and keeps them), which
  // the steady state no longer does.
  if (backends.includes('wasm')) {
    for (const op of DISPOSED_OPS) {
      const job = { backend: 'wasm', kind: op, ...config.ops, calls: ops.calls, dispose: true };
      process.stderr.write(`cold start: wasm ${op}\n`);
      try {
        rows.push({
          backend: 'wasm',
          op,
          size: `${config.ops.nnz} stored of ${config.ops.rows}×${config.ops.cols}`,
          dispose: true,
          ...measureCold(job, ops.processes),
        });
      } catch (e) {
        rows.push({ backend: 'wasm', op, dispose: true, error: String(e.message).split('\n')[0] });
      }
    }
  }
  return { rows };
}
