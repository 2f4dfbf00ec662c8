// Questions 2 and 3, by sampling: where one SpMM call of a backend spends its time, as self time per function
// from `node --cpu-prof` over many calls on the headline data. Generic: whatever functions the kernels have
// after a change show up by name; STAGES only labels the ones it knows.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hotLines, selfTimes } from './lib/cpuprofile.mjs';
import { wasmExportNames } from './lib/wasm-names.mjs';
import { HERE, WASM_FILE, run } from './lib/tools.mjs';

/** Known functions → the stage of the call they belong to (a label only; unknown ones read "other"). */
const STAGES = [
  [/^spmm_(float|int)\d+ \(wasm\)$/, 'multiply'],
  [/^spmm_runs \(wasm\)$/, 'runs pass'],
  [/^spmm_csr_/, 'CSR pass (out-of-order entries)'],
  [/^spmm_tiles \(wasm\)$/, 'slab split (out-of-order entries)'],
  [/^indices_valid \(wasm\)$|^indicesValid$|^matrixIndicesValid$|^validateSparse$/, 'index check'],
  [/^putValues$|^putI32$|^putIndices$/, 'copy in'],
  [/^readValues$|^readIndices$/, 'copy out'],
  [/^rows(Float|Int)\d+$|^rowsGeneric$|^accumulateRows$/, 'multiply'],
  [/^allocValues$|^zeros$/, 'output allocation'],
  [/^transposeMatrix$|^transpose_\d/, 'transpose'],
  [/^\(garbage collector\)$/, 'GC'],
  [/^\(program\)$|^\(idle\)$/, 'VM / unattributed'],
  [
    /^bindArgs$|^resolveNames$|^runWithReport$|^run$|^wrapOutputs$|^runChecks$|^guardOutputSizes$|^toData$|^Tensor$|^SparseTensor$/,
    'runtime glue',
  ],
];
const stageOf = (name) => STAGES.find(([re]) => re.test(name))?.[1] ?? 'other';

/**
 * Profiles `seconds` of calls of the backend's SpMM on `meta` (a data dir). Returns {calls, windowMs, msPerCall,
 * functions: [{name, where, stage, msPerCall, share}], stages: [{stage, msPerCall, share}]}.
 */
export function cpuBreakdown(backend, meta, work, { seconds = 5, intervalUs = 100, warmup = 5 } = {}) {
  const dir = mkdtempSync(join(work, `cpuprof-${backend}-`));
  const args = [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
    `--cpu-prof-interval=${intervalUs}`,
    join(HERE, 'workers', 'op-loop.mjs'),
    backend,
    'spmm',
    JSON.stringify(meta),
    `${seconds}s`,
    String(warmup),
  ];
  const r = run(process.execPath, args);
  if (!r.ok) throw new Error(`node --cpu-prof (${backend}) failed: ${r.stderr.trim().split('\n').pop()}`);
  const loop = JSON.parse(r.stdout);
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const { functions, windowMs } = selfTimes(profile, wasmExportNames(WASM_FILE));
  // The window holds the warm-up calls too: they ran below profiledLoop as well.
  const calls = loop.calls + warmup;
  const fns = functions.map((f) => ({ ...f, stage: stageOf(f.name), msPerCall: f.ms / calls, share: f.ms / windowMs }));
  const stages = new Map();
  for (const f of fns) stages.set(f.stage, (stages.get(f.stage) ?? 0) + f.ms);
  // The hottest JS function's hottest lines, with their source (the built file V8 ran).
  const hot = fns.find((f) => f.url?.startsWith('file:'));
  let lines = [];
  if (hot) {
    const path = fileURLToPath(hot.url);
    const src = existsSync(path) ? readFileSync(path, 'utf8').split('\n') : [];
    lines = hotLines(profile, hot.name, hot.url)
      .slice(0, 6)
      .map((l) => ({ ...l, text: (src[l.line - 1] ?? '').trim() }));
  }
  return {
    calls,
    hot: hot && { name: hot.name, where: hot.where, lines },
    windowMs,
    msPerCall: windowMs / calls,
    medianMs: loop.median_ms,
    functions: fns.map(({ url: _url, ...f }) => f),
    stages: [...stages]
      .map(([stage, ms]) => ({ stage, msPerCall: ms / calls, share: ms / windowMs }))
      .sort((a, b) => b.msPerCall - a.msPerCall),
  };
}
