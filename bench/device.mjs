// The GPU bench: our webgpu backend's SpMM, reduction and SpGEMM beside PyTorch's torch.sparse on CUDA, on the same
// data, with ratios (ours / torch's; below 1 is faster). One command on a machine with a GPU, Node and Python with
// PyTorch: `npm run bench:device` (under 5 minutes; `--quick` for small problems). Where Dawn finds no GPU, the
// webgpu rows run on SwiftShader (software Vulkan) and say so: correctness and fixed costs, not a GPU's speed.
// Each of our figures is a whole call as a user awaits it (arguments uploaded, the kernel, the result read back);
// torch's are the CUDA kernel with its inputs already on the device, synchronized. `--out=FILE` writes the JSON.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, CsrMatrix, registerBackend, tensor } from '@sparse/runtime';
import { createWebGpuBackend } from '@sparse/kernels-webgpu';
import { randomCoo, randomDense, toSparse, writeArray, writeCoo } from './lib/data.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const out = args.find((a) => a.startsWith('--out='))?.slice(6);
const REPS = quick ? 3 : 20;
const WARMUP = quick ? 1 : 3;

/** The problems: the headline SpMM, a 10^6-entry row reduction, and SpGEMM of two matrices at 1%. */
const PROBLEMS = quick
  ? { spmm: { m: 512, density: 0.01, n: 32 }, reduce: { m: 200, density: 0.25 }, spgemm: { m: 256, density: 0.01 } }
  : {
      spmm: { m: 4096, density: 0.01, n: 128 },
      reduce: { m: 4000, density: 0.0625 },
      spgemm: { m: 4096, density: 0.01 },
    };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Awaits `call` WARMUP + REPS times: the median of the timed ones, and the delegation reason if it ran on js. */
async function time(call) {
  for (let i = 0; i < WARMUP; i++) await call();
  const ms = [];
  let delegated;
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    const r = await call();
    ms.push(performance.now() - t0);
    delegated = r.delegated;
    for (const o of Object.values(r.outputs)) o.dispose?.();
  }
  return { median_ms: median(ms), ...(delegated ? { delegated } : {}) };
}

/** A CsrMatrix (float32) of a canonical COO triple. */
function csrOf(c) {
  const rowPointers = new Int32Array(c.shape[0] + 1);
  for (const r of c.rows) rowPointers[r + 1]++;
  for (let r = 0; r < c.shape[0]; r++) rowPointers[r + 1] += rowPointers[r];
  return new CsrMatrix(rowPointers, c.cols, c.vals, c.shape, 'float32');
}

const work = mkdtempSync(join(tmpdir(), 'sparse-device-bench-'));
const results = { quick, problems: PROBLEMS, ours: {}, torch: {} };
try {
  const backend = await createWebGpuBackend();
  registerBackend('webgpu', () => backend);
  const rt = await createRuntime({ backend: 'webgpu' });
  results.adapter = backend.adapter;
  results.software = /swiftshader|llvmpipe|lavapipe/i.test(results.adapter);

  const { spmm, reduce, spgemm } = PROBLEMS;
  const a = randomCoo(spmm.m, spmm.m, spmm.density, 1);
  const b = randomDense(spmm.m, spmm.n, 2);
  writeCoo(join(work, 'spmm'), a);
  writeArray(join(work, 'spmm'), 'b.bin', b);
  const [sa, tb] = [toSparse(a), tensor(b, 'float32', [spmm.m, spmm.n])];
  results.ours.spmm = await time(() => rt.runWithReportAsync('sparse_tensor_dense_matmul', { sp_a: sa, b: tb }));

  const r = randomCoo(reduce.m, reduce.m, reduce.density, 3);
  writeCoo(join(work, 'reduce'), r);
  const sr = toSparse(r);
  results.ours.reduce_sum_rows = await time(() =>
    rt.runWithReportAsync('sparse_reduce_sum', { sp_input: sr, axis: 1 }),
  );

  const g = randomCoo(spgemm.m, spgemm.m, spgemm.density, 4);
  writeCoo(join(work, 'spgemm'), g);
  const cg = csrOf(g);
  results.ours.spgemm = await time(() => rt.runWithReportAsync('sparse_matrix_sparse_mat_mul', { a: cg, b: cg }));

  results.torch = torchPeer(work, { reps: REPS, warmup: WARMUP, problems: PROBLEMS });
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** PyTorch on CUDA through the machine's python3 (bench/peers/torch_peer.py), or why it is unavailable. */
function torchPeer(dir, job) {
  writeFileSync(join(dir, 'job.json'), JSON.stringify({ dir, ...job }));
  const peer = join(dirname(fileURLToPath(import.meta.url)), 'peers', 'torch_peer.py');
  try {
    return JSON.parse(execFileSync('python3', [peer, join(dir, 'job.json')], { encoding: 'utf8', stdio: 'pipe' }));
  } catch (e) {
    const why = String(e?.stderr?.trim() || e?.message || e)
      .split('\n')
      .filter(Boolean)
      .pop();
    return { unavailable: why };
  }
}

const rows = [
  ['spmm', `SpMM ${PROBLEMS.spmm.m}² at ${PROBLEMS.spmm.density * 100}%, n = ${PROBLEMS.spmm.n}`],
  ['reduce_sum_rows', `reduce_sum by rows, ${PROBLEMS.reduce.m}² at ${PROBLEMS.reduce.density * 100}%`],
  ['spgemm', `SpGEMM ${PROBLEMS.spgemm.m}² at ${PROBLEMS.spgemm.density * 100}%, A·A`],
];
console.log(
  `webgpu on ${results.adapter}${results.software ? ' (software Vulkan: not a GPU figure)' : ''}; ` +
    `torch: ${results.torch.unavailable ? `unavailable (${results.torch.unavailable})` : results.torch.device}`,
);
console.log('| op | webgpu ms | torch ms | ratio | note |');
console.log('| --- | --- | --- | --- | --- |');
for (const [key, label] of rows) {
  const ours = results.ours[key];
  const theirs = results.torch.tasks?.[key]?.median_ms;
  const ratio = theirs ? (ours.median_ms / theirs).toFixed(2) : '—';
  const note = ours.delegated ? `ran on the JS kernels: ${ours.delegated}` : '';
  console.log(`| ${label} | ${ours.median_ms.toFixed(3)} | ${theirs?.toFixed(3) ?? '—'} | ${ratio} | ${note} |`);
}
if (out) writeFileSync(out, JSON.stringify(results, null, 2));
process.exit(0);
