// npm run bench [-- --quick]: sparse's backends against each other and against scipy/numpy and a native C++
// loop, on the same data in one run. Writes bench/results/latest.json and latest.md. Times are medians.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { SparseTensor, createRuntime, listBackends, tensor } from '@sparse/runtime';

const HERE = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const SIZES = quick
  ? { spmm: { m: 1024, k: 1024, n: 32, density: 0.01 }, ops: { rows: 1000, cols: 1000, nnz: 100_000 }, time: 150, repeats: 10 }
  : { spmm: { m: 4096, k: 4096, n: 128, density: 0.01 }, ops: { rows: 4000, cols: 4000, nnz: 1_000_000 }, time: 2000, repeats: 40 };
const work = mkdtempSync(join(tmpdir(), 'sparse-bench-'));
const backends = listBackends();

/** A deterministic generator, so every run and every peer sees the same data. */
function lcg(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Random distinct positions of an m×k matrix in canonical order, about `nnz` of them. */
function randomCoo(m, k, nnz, seed) {
  const rnd = lcg(seed);
  const p = nnz / (m * k);
  const rows = [];
  const cols = [];
  for (let i = 0; i < m; i++) for (let j = 0; j < k; j++) if (rnd() < p) rows.push(i), cols.push(j);
  const vals = Float32Array.from(rows, () => rnd() * 2 - 1);
  return { rows: Int32Array.from(rows), cols: Int32Array.from(cols), vals, shape: [m, k] };
}

function toSparse(c) {
  const idx = new Float64Array(c.rows.length * 2);
  for (let i = 0; i < c.rows.length; i++) (idx[2 * i] = c.rows[i]), (idx[2 * i + 1] = c.cols[i]);
  return new SparseTensor(idx, c.vals, c.shape, 'float32');
}

function writeCoo(dir, c, suffix = '') {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `rows${suffix}.bin`), c.rows);
  writeFileSync(join(dir, `cols${suffix}.bin`), c.cols);
  writeFileSync(join(dir, `vals${suffix}.bin`), c.vals);
}

async function measure(tasks) {
  const bench = new Bench({ time: SIZES.time, warmupTime: Math.min(500, SIZES.time / 2), iterations: 5 });
  for (const [name, fn] of tasks) bench.add(name, fn);
  await bench.run();
  return Object.fromEntries(
    bench.tasks.map((t) => {
      const l = t.result.latency;
      return [t.name, { median_ms: l.p50, min_ms: l.min, max_ms: l.max, samples: l.samplesCount }];
    }),
  );
}

function peer(cmd, args) {
  try {
    return JSON.parse(execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, OPENBLAS_CORETYPE: '', OPENBLAS_L2_SIZE: '' } }));
  } catch (e) {
    console.error(`peer ${cmd} unavailable: ${e.message.split('\n')[0]}`);
    return undefined;
  }
}

const results = {
  date: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  machine: { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version, platform: `${process.platform}-${process.arch}` },
  versions: {},
  spmm: {},
  ops: {},
};

// --- SpMM: sparse_tensor_dense_matmul, A m×k at `density`, B k×n, float32.
{
  const { m, k, n, density } = SIZES.spmm;
  const coo = randomCoo(m, k, Math.round(m * k * density), 7);
  const rnd = lcg(11);
  const bData = Float32Array.from({ length: k * n }, () => rnd() * 2 - 1);
  const dir = join(work, 'spmm');
  writeCoo(dir, coo);
  writeFileSync(join(dir, 'b.bin'), bData);
  const a = toSparse(coo);
  const b = tensor(bData, 'float32', [k, n]);
  const tasks = [];
  for (const backend of backends) {
    const rt = await createRuntime({ backend });
    tasks.push([`spmm/${backend}`, () => rt.run('sparse_tensor_dense_matmul', { sp_a: a, b })]);
  }
  Object.assign(results.spmm, await measure(tasks));
  const py = peer('python3', [join(HERE, 'peers/numpy_peer.py'), writeJob([{ name: 'spmm', kind: 'spmm', dir, m, k, n, repeats: SIZES.repeats }])]);
  if (py) Object.assign(results.spmm, py.tasks), Object.assign(results.versions, py.versions);
  const exe = join(work, 'spmm-native');
  try {
    execFileSync('g++', ['-O3', '-march=native', '-o', exe, join(HERE, 'peers/spmm.cpp')]);
    results.versions.gxx = execFileSync('g++', ['-dumpfullversion'], { encoding: 'utf8' }).trim();
    const nat = peer(exe, [dir, m, k, n, coo.rows.length, SIZES.repeats].map(String));
    if (nat) results.spmm['spmm/native-c++'] = nat;
  } catch (e) {
    console.error(`native peer unavailable: ${e.message.split('\n')[0]}`);
  }
  results.spmm.shape = { m, k, n, density, nnz: coo.rows.length };
}

// --- Ops on ~nnz stored entries of a rows×cols float32 matrix.
{
  const { rows, cols, nnz } = SIZES.ops;
  const c1 = randomCoo(rows, cols, nnz, 21);
  const c2 = randomCoo(rows, cols, nnz, 22);
  const dir = join(work, 'ops');
  writeCoo(dir, c1);
  writeCoo(dir, c2, '2');
  const a = toSparse(c1);
  const b2 = toSparse(c2);
  // The same entries out of order, for reorder: a fixed shuffle.
  const rnd = lcg(5);
  const perm = Uint32Array.from({ length: c1.rows.length }, (_, i) => i);
  for (let i = perm.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const shuffled = toSparse({ rows: c1.rows.map((_, i) => c1.rows[perm[i]]), cols: c1.cols.map((_, i) => c1.cols[perm[i]]), vals: c1.vals.map((_, i) => c1.vals[perm[i]]), shape: c1.shape });
  const tasks = [];
  for (const backend of backends) {
    const rt = await createRuntime({ backend });
    tasks.push([`reorder/${backend}`, () => rt.run('sparse_reorder', { sp_input: shuffled })]);
    tasks.push([`to_dense/${backend}`, () => rt.run('sparse_tensor_to_dense', { sp_input: a })]);
    tasks.push([`add/${backend}`, () => rt.run('sparse_add', { a, b: b2 })]);
    tasks.push([`reduce_sum/${backend}`, () => rt.run('sparse_reduce_sum', { sp_input: a, axis: 1 })]);
  }
  Object.assign(results.ops, await measure(tasks));
  const job = ['reorder', 'to_dense', 'add', 'reduce_sum'].map((kind) => ({ name: kind, kind, dir, shape: [rows, cols], repeats: SIZES.repeats }));
  const py = peer('python3', [join(HERE, 'peers/numpy_peer.py'), writeJob(job)]);
  if (py) Object.assign(results.ops, py.tasks), Object.assign(results.versions, py.versions);
  results.ops.shape = { rows, cols, nnz: c1.rows.length };
}

function writeJob(tasks) {
  const p = join(work, `job-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(p, JSON.stringify({ tasks }));
  return p;
}

rmSync(work, { recursive: true, force: true });
const out = join(HERE, 'results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'latest.json'), JSON.stringify(results, null, 2) + '\n');
writeFileSync(join(out, 'latest.md'), markdown(results));
console.log(markdown(results));

function markdown(r) {
  const ms = (x) => (x ? x.median_ms.toFixed(2) : '—');
  const ratio = (x, y) => (x && y ? (x.median_ms / y.median_ms).toFixed(2) + '×' : '—');
  const s = r.spmm;
  const lines = [
    `# sparse bench (${r.mode}), ${r.date}`,
    '',
    `Machine: ${r.machine.cpu}, ${r.machine.cores} cores, Node ${r.machine.node}; ${Object.entries(r.versions).map(([k, v]) => `${k} ${v}`).join(', ')}.`,
    `Command: \`npm run bench${r.mode === 'quick' ? ' -- --quick' : ''}\`. Median milliseconds; ratios are ours ÷ the peer (below 1 is faster).`,
    '',
    `## sparse_tensor_dense_matmul, float32: A ${s.shape.m}×${s.shape.k} (${s.shape.nnz} stored, ${s.shape.density * 100}%), B ${s.shape.k}×${s.shape.n}`,
    '',
    '| backend | median ms | ÷ scipy | ÷ native C++ | ÷ js |',
    '| --- | --- | --- | --- | --- |',
    ...backends.map((b) => `| ${b} | ${ms(s[`spmm/${b}`])} | ${ratio(s[`spmm/${b}`], s['spmm/scipy'])} | ${ratio(s[`spmm/${b}`], s['spmm/native-c++'])} | ${ratio(s[`spmm/${b}`], s['spmm/js'])} |`),
    `| scipy (CSR × dense) | ${ms(s['spmm/scipy'])} | | | |`,
    `| native C++ (g++ -O3 -march=native) | ${ms(s['spmm/native-c++'])} | | | |`,
    '',
    `## Ops on ${r.ops.shape.nnz} stored entries of a ${r.ops.shape.rows}×${r.ops.shape.cols} float32 matrix`,
    '',
    `| op | ${backends.map((b) => `${b} ms`).join(' | ')} | scipy/numpy ms | ${backends.map((b) => `${b} ÷ scipy`).join(' | ')} | ${backends.filter((b) => b !== 'js').map((b) => `${b} ÷ js`).join(' | ')} |`,
    `| --- | ${backends.map(() => '---').join(' | ')} | --- | ${backends.map(() => '---').join(' | ')} | ${backends.filter((b) => b !== 'js').map(() => '---').join(' | ')} |`,
    ...['reorder', 'to_dense', 'add', 'reduce_sum'].map((op) => {
      const o = r.ops;
      return `| ${op} | ${backends.map((b) => ms(o[`${op}/${b}`])).join(' | ')} | ${ms(o[`${op}/scipy`])} | ${backends.map((b) => ratio(o[`${op}/${b}`], o[`${op}/scipy`])).join(' | ')} | ${backends.filter((b) => b !== 'js').map((b) => ratio(o[`${op}/${b}`], o[`${op}/js`])).join(' | ')} |`;
    }),
    '',
  ];
  return lines.join('\n');
}
