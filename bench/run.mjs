// npm run bench [-- --quick] [-- --out=DIR] [-- --only=SECTION,...]: our backends against TensorFlow.js, scipy/numpy
// and a native C++ loop, on the same data in one run. Writes bench/results/latest.json (every figure, the machine,
// the versions), latest.md (the tables and ratios) and sparse-dense-ratio.svg (the chart). --quick runs a reduced
// grid (what CI runs, to keep this working; it asserts no timing). --only runs some sections (spmm-grid, ops,
// cold-start, scaling, gpu, embedding, spgemm, gcn) and writes their report to --out, by default a temp dir, never over latest.*: a
// report of the whole run comes from a whole run.
//
//   lib/config.mjs        the grids, sizes and timing budgets (full and quick)
//   lib/data.mjs          deterministic data, written once for every peer
//   lib/measure.mjs       tinybench runs (median, min, max), checksums, log-log slopes
//   lib/peers.mjs         python3 (scipy/numpy) and the g++-built C++ loop as subprocesses
//   lib/tfjs.mjs          TensorFlow.js on its cpu and wasm backends
//   lib/tf-published.mjs  TensorFlow's published table (from the seed doc)
//   lib/summary.mjs       ratios by density, headline and targets
//   lib/markdown.mjs      latest.md;  lib/svg.mjs: the chart
//   sections/*.mjs        the six parts: the SpMM grid, other ops, cold start (first calls in fresh processes),
//                         scaling (js and wasm against the peers), the gpu backend on its own (compile once,
//                         run many; against js and wasm), embedding lookups (against numpy), sparse × sparse
//                         (SpGEMM) against scipy, and the GCN of examples/gcn training on a stochastic-block-model
//                         graph (time per epoch)
//   lib/cold-worker.mjs   one fresh process of the cold-start section
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, listBackends } from '@sparse/runtime';
import { benchConfig } from './lib/config.mjs';
import { markdown } from './lib/markdown.mjs';
import { Peers } from './lib/peers.mjs';
import { ratioByDensity } from './lib/summary.mjs';
import { ratioChart } from './lib/svg.mjs';
import { loadTfjs } from './lib/tfjs.mjs';
import { TF_TABLE_SOURCE } from './lib/tf-published.mjs';
import { coldStart } from './sections/cold-start.mjs';
import { embeddingSection } from './sections/embedding.mjs';
import { gcnSection } from './sections/gcn.mjs';
import { gpuSection } from './sections/gpu.mjs';
import { otherOps } from './sections/ops.mjs';
import { scaling } from './sections/scaling.mjs';
import { spmmGrid } from './sections/spmm-grid.mjs';
import { spgemm } from './sections/spgemm.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CHART = 'sparse-dense-ratio.svg';
const started = performance.now();
const config = benchConfig(process.argv.includes('--quick'));
const SECTIONS = {
  'spmm-grid': ['spmm_grid', spmmGrid],
  ops: ['ops', otherOps],
  'cold-start': ['cold_start', coldStart],
  scaling: ['scaling', scaling],
  gpu: ['gpu', gpuSection],
  embedding: ['embedding', embeddingSection],
  spgemm: ['spgemm', spgemm],
  gcn: ['gcn', gcnSection],
};
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg?.slice('--only='.length).split(',');
const unknownSection = only?.find((n) => !Object.hasOwn(SECTIONS, n));
if (unknownSection) {
  console.error(`bench: unknown section '${unknownSection}'; the sections are ${Object.keys(SECTIONS).join(', ')}`);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'sparse-bench-'));

const results = {
  date: new Date().toISOString(),
  mode: config.mode,
  runtime_s: 0,
  machine: {
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch} ${release()}`,
  },
  versions: {},
  backends: { available: [], unavailable: {} },
  peers: {},
  tf_published_source: TF_TABLE_SOURCE,
  config,
  sections: only ?? Object.keys(SECTIONS),
};

// Our backends: every registered one that loads, but the GPU ones: gpu has its own section (sections/gpu.mjs, its
// own instance): on software WebGL its calls would dominate the CPU sections' run time, and what it needs measuring
// is compiling and transfers, not the CPU ratios; webgpu's calls are asynchronous and are not benched yet.
const ours = [];
for (const name of listBackends().filter((b) => b !== 'gpu' && b !== 'webgpu')) {
  try {
    ours.push({ name, rt: await createRuntime({ backend: name }) });
    results.backends.available.push(name);
  } catch (e) {
    results.backends.unavailable[name] = String(e?.message ?? e).split('\n')[0];
  }
}
// The wasm backend on this machine's cores (up to 2), as a backend of its own: its products, reductions, merges and
// transposes cut between the threads.
const threads = Math.min(2, availableParallelism());
if (threads > 1 && results.backends.available.includes('wasm')) {
  const name = `wasm-${threads}t`;
  try {
    ours.push({ name, rt: await createRuntime({ backend: 'wasm', threads }) });
    results.backends.available.push(name);
  } catch (e) {
    results.backends.unavailable[name] = String(e?.message ?? e).split('\n')[0];
  }
}
const { tf, backends: tfBackends } = await loadTfjs(results.peers);
const ctx = { config, work, ours, tf, tfBackends, peers: new Peers(work, results.peers) };

try {
  for (const name of results.sections) {
    const [key, section] = SECTIONS[name];
    results[key] = await section(ctx);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
results.versions = {
  node: process.version,
  ...(results.peers.python?.versions ?? {}),
  ...(results.peers.tfjs?.versions ?? {}),
  ...(results.peers.native?.compiler ? { native: results.peers.native.compiler } : {}),
};
results.runtime_s = (performance.now() - started) / 1000;

const outArg = process.argv.find((a) => a.startsWith('--out='));
const out = outArg
  ? outArg.slice('--out='.length)
  : only
    ? mkdtempSync(join(tmpdir(), 'sparse-bench-only-'))
    : join(HERE, 'results');
mkdirSync(out, { recursive: true });
const md = markdown(results, CHART);
writeFileSync(join(out, 'latest.json'), JSON.stringify(results, null, 2) + '\n');
writeFileSync(join(out, 'latest.md'), md);
if (results.spmm_grid)
  writeFileSync(
    join(out, CHART),
    ratioChart(ratioByDensity(results.spmm_grid, results.backends.available), {
      title: 'sparse_tensor_dense_matmul: sparse ÷ dense time, by density',
      subtitle: `${results.mode} run ${results.date.slice(0, 10)}, ${results.machine.cpu}; TF's published ratios from its docs`,
    }),
  );
console.log(md);
console.error(`bench: ${results.runtime_s.toFixed(1)} s; wrote ${join(out, 'latest.json')}, latest.md, ${CHART}`);
// tfjs-backend-wasm keeps its module alive; the run is over.
process.exit(0);
