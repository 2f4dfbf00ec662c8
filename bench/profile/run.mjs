// npm run bench:profile [-- --quick] [-- --out=DIR]: the profiles behind the bench's missed targets,
// written to bench/results/profile.md (+ profile.json). Not part of CI or npm test; a full run takes ~10 min.
// `-- --from=profile.json` only rewrites profile.md (beside that file) from the figures of an earlier run.
//
//   headline-race.mjs    Q2/Q3 by the clock: whole call and stages in turns with scipy and the C++ loop
//   cpu-breakdown.mjs    Q2/Q3 by sampling: node --cpu-prof self time per function
//   headline-counts.mjs  Q2/Q3 by counts: cachegrind instructions and misses per call
//   wall-scaling.mjs     Q1 by the clock: time per stored entry at each scaling point
//   pages.mjs            Q1: 4 KB vs 2 MB pages (the TLB share cachegrind cannot see)
//   cache-scaling.mjs    Q1 by counts: instructions and misses per stored entry as the data grow
//   report.mjs           profile.md
// The wall-clock parts run first, before the valgrind parts take both cores.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { cacheScaling } from './cache-scaling.mjs';
import { cpuBreakdown } from './cpu-breakdown.mjs';
import { headlineCounts } from './headline-counts.mjs';
import { headlineRace } from './headline-race.mjs';
import { headlineData } from './lib/data.mjs';
import { ROOT, findTools } from './lib/tools.mjs';
import { pagesExperiment } from './pages.mjs';
import { report } from './report.mjs';
import { wallScaling } from './wall-scaling.mjs';

const fromArg = process.argv.find((a) => a.startsWith('--from='))?.slice('--from='.length);
if (fromArg) {
  writeFileSync(join(dirname(fromArg), 'profile.md'), report(JSON.parse(readFileSync(fromArg, 'utf8'))));
  process.exit(0);
}
const quick = process.argv.includes('--quick');
const outArg = process.argv.find((a) => a.startsWith('--out='));
const out = outArg ? outArg.slice('--out='.length) : join(ROOT, 'bench', 'results');
const ALL = [1e4, 3e4, 1e5, 3e5, 1e6, 3e6, 1e7];
const config = quick
  ? { rounds: 5, cpuSeconds: 2, sizes: [1e4, 1e5, 3e5], nodeCountSizes: [1e4, 1e5], pageRounds: 5 }
  : { rounds: 21, cpuSeconds: 6, sizes: ALL, nodeCountSizes: [1e4, 1e5, 1e6, 3e6], pageRounds: 31 };
const nodeRuns = [
  ['wasm', 'spmm'],
  ['wasm', 'reorder'],
];

const started = performance.now();
const log = (s) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${s}\n`);
const work = mkdtempSync(join(tmpdir(), 'sparse-profile-'));
const tools = findTools();
for (const [k, t] of Object.entries(tools)) if (!t.ok) log(`${k}: ${t.reason} (its parts are skipped)`);
const r = {
  date: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  machine: {
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch} ${release()}`,
  },
  tools,
  config: { ...config, nodeRuns },
  notes: [],
};
const part = async (name, fn) => {
  try {
    r[name] = await fn();
  } catch (e) {
    r.notes.push(`${name} failed: ${String(e?.message ?? e).split('\n')[0]}`);
    log(`${name} failed: ${e?.stack ?? e}`);
  }
};

try {
  const head = headlineData(work);
  await part('race', () => headlineRace(head, work, tools, { rounds: config.rounds, log }));
  await part('cpu', () => {
    const o = {};
    for (const b of ['wasm', 'js']) {
      log(`cpu profile ${b}`);
      o[b] = cpuBreakdown(b, head, work, { seconds: config.cpuSeconds });
    }
    return o;
  });
  const sizes = { nativeSizes: config.sizes, nodeSizes: config.sizes, nodeRuns, log };
  await part('wall', () => wallScaling(work, tools, sizes));
  await part('pages', () => pagesExperiment(work, tools, { sizes: config.sizes, rounds: config.pageRounds, log }));
  if (tools.valgrind.ok) {
    await part('counts', () => headlineCounts(head, work, tools, { log }));
    await part('scaling', () => cacheScaling(work, tools, { ...sizes, nodeSizes: config.nodeCountSizes }));
  } else r.notes.push(`cachegrind parts skipped: ${tools.valgrind.reason}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
// The slopes the bench itself last reported (its latest.json), for reference beside ours.
try {
  const latest = JSON.parse(readFileSync(join(ROOT, 'bench', 'results', 'latest.json'), 'utf8'));
  r.bench_slopes = {
    date: latest.date,
    machine: latest.machine?.cpu,
    fits: Object.fromEntries(Object.entries(latest.scaling?.fits ?? {}).map(([k, f]) => [k, f.slope])),
  };
} catch {
  // no earlier bench results: nothing to set beside ours
}
r.runtime_s = (performance.now() - started) / 1000;
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'profile.json'), JSON.stringify(r, null, 2) + '\n');
writeFileSync(join(out, 'profile.md'), report(r));
log(`wrote ${join(out, 'profile.md')} and profile.json`);
