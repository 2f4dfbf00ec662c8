// Cold start: the first calls in a fresh process against the same process's steady state. Each run is a new Node
// process (lib/cold-worker.mjs) that loads the runtime, makes the backend (timed: the wasm backend compiles its
// module and warms itself up here), builds the data, then times its first calls one by one. Reported per case, as
// medians over the processes: the first call, the median of the first 10, and the steady state (the median of the
// second half of the same process's calls); with each result dropped (an app that lets the garbage collector free
// them) or, for wasm, disposed as soon as it is made; and with the operands readied by `rt.prepare` at load (as a
// server would) or not. Beside them: the floor of a first call (the time the same process takes to write the
// result's bytes into memory it never touched), and scipy's first call and steady state on the same data, each in
// a fresh Python process.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomCoo, randomDense, shuffled, writeArray, writeCoo } from '../lib/data.mjs';
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

/** First call, first 10 and steady state of runs (each a process's call times, in order), medians over the runs. */
function summarize(runs) {
  const steady = median(runs.map((r) => median(r.times.slice(Math.floor(r.times.length / 2)))));
  const first = median(runs.map((r) => r.times[0]));
  const first10 = median(runs.map((r) => median(r.times.slice(0, 10))));
  return {
    processes: runs.length,
    calls: runs[0].times.length,
    first_ms: first,
    first10_ms: first10,
    steady_ms: steady,
    first_over_steady: first / steady,
    first10_over_steady: first10 / steady,
    // Every process's calls, for latest.json.
    times: runs.map((r) => r.times.map((t) => Number(t.toFixed(3)))),
  };
}

/** Runs `job` in `processes` fresh Node processes and sums them up. */
function measureCold(job, processes) {
  const runs = [];
  for (let i = 0; i < processes; i++) runs.push(run(job));
  const m = (k) => median(runs.map((r) => r[k]));
  return {
    import_ms: m('import_ms'),
    create_ms: m('create_ms'),
    ...(job.prepare ? { prepare_ms: m('prepare_ms') } : {}),
    out_bytes: runs[0].out_bytes,
    fresh_pages_ms: m('fresh_pages_ms'),
    ...summarize(runs),
  };
}

/** scipy's first calls of a task, each of `processes` runs in a fresh Python process; undefined without scipy. */
function scipyCold(peers, task, processes) {
  const runs = [];
  for (let i = 0; i < processes; i++) {
    const r = peers.python([{ name: 'cold', ...task, warmup: 0, cold: true }])?.tasks['cold/scipy'];
    if (!r?.times) return r?.error ? { error: r.error } : undefined;
    runs.push(r);
  }
  const s = summarize(runs);
  return {
    first_ms: s.first_ms,
    first10_ms: s.first10_ms,
    steady_ms: s.steady_ms,
    first_over_steady: s.first_over_steady,
  };
}

/** The variants each backend runs: results dropped or disposed, operands prepared at load or not. */
function variants(backend) {
  const dropped = { dispose: false, prepare: false };
  const prepared = { dispose: true, prepare: true };
  if (backend === 'wasm') return [dropped, { dispose: true, prepare: false }, prepared];
  return backend.startsWith('wasm-') ? [dropped, prepared] : [dropped];
}

export async function coldStart(ctx) {
  const { config, ours, peers } = ctx;
  const { spmm, processes, calls, ops } = config.cold;
  const backends = ours.map((o) => o.name);
  const rows = [];
  const measured = (row, job, n) => {
    const how = `${row.dispose ? ', disposed' : ''}${row.prepare ? ', prepared' : ''}`;
    process.stderr.write(`cold start: ${row.backend} ${row.op} ${row.size}${how}\n`);
    try {
      rows.push({ ...row, ...measureCold(job, n) });
    } catch (e) {
      rows.push({ ...row, error: String(e.message).split('\n')[0] });
    }
  };
  const scipy = {};

  for (const { m, n } of spmm) {
    const size = `A ${m}×${m} at 1%, B ${m}×${n}`;
    for (const backend of backends) {
      for (const v of variants(backend)) {
        measured(
          { backend, op: 'sparse_tensor_dense_matmul', size, ...v },
          { backend, kind: 'spmm', m, n, calls, ...v },
          processes,
        );
      }
    }
    // The worker's data (seeds 1 and 2), for scipy.
    const dir = join(ctx.work, 'cold', `spmm-${m}`);
    writeCoo(dir, randomCoo(m, m, 0.01, 1));
    writeArray(dir, 'b.bin', randomDense(m, n, 2));
    process.stderr.write(`cold start: scipy spmm ${m}²\n`);
    scipy[size] = scipyCold(peers, { kind: 'spmm', dir, m, k: m, n, repeats: calls }, processes);
  }

  // The 10^6-entry ops on wasm, with each result disposed (as the ops section's "disposed" rows).
  if (backends.includes('wasm')) {
    const { rows: r, cols, nnz } = config.ops;
    const size = `${nnz} stored of ${r}×${cols}`;
    const dir = join(ctx.work, 'cold', 'ops');
    const c1 = randomCoo(r, cols, nnz / (r * cols), 21);
    writeCoo(dir, c1);
    writeCoo(dir, randomCoo(r, cols, nnz / (r * cols), 22), '2');
    writeCoo(join(dir, 'shuffled'), shuffled(c1, 5));
    for (const op of DISPOSED_OPS) {
      for (const prepare of [false, true]) {
        measured(
          { backend: 'wasm', op, size, dispose: true, prepare },
          { backend: 'wasm', kind: op, ...config.ops, calls: ops.calls, dispose: true, prepare },
          ops.processes,
        );
      }
      process.stderr.write(`cold start: scipy ${op}\n`);
      scipy[op] = scipyCold(
        peers,
        { kind: op, dir: op === 'reorder' ? join(dir, 'shuffled') : dir, shape: [r, cols], repeats: ops.calls },
        ops.processes,
      );
    }
  }
  for (const row of rows) {
    const peer = scipy[row.op === 'sparse_tensor_dense_matmul' ? row.size : row.op];
    if (peer) row.scipy = peer;
  }
  return { rows };
}
