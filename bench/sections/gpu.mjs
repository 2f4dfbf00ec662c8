// The gpu backend (gpu.js on WebGL) on its own: what compiling once and running many times costs. For SpMM and two
// family ops (sparse_add, a merge: two kernels; sparse_reduce_sum, a reduce) at a few sizes: the first call (it
// compiles the kernels of its size class), the median of later calls, backend.kernelsCompiled() before and after
// each, and js and wasm on the same data. Then the calls of several GPU stages with the stages pipelined (one
// stage's result passed on as a texture) against `pipeline: false` (read back and uploaded again between stages),
// with the read-backs each makes. Without WebGL the section records why, and the bench goes on.
import { existsSync } from 'node:fs';
import { Runtime, tensor } from '@sparse/runtime';
import { randomCoo, randomDense, toSparse } from '../lib/data.mjs';
import { measure } from '../lib/measure.mjs';

const firstLine = (e) => String(e?.message ?? e).split('\n')[0];

export async function gpuSection(ctx) {
  const { config, ours } = ctx;
  let createGpuBackend;
  let backend;
  try {
    ({ createGpuBackend } = await import('@sparse/kernels-gpu'));
    backend = await createGpuBackend();
  } catch (e) {
    process.stderr.write(`gpu: not run: ${firstLine(e)}\n`);
    return { available: false, reason: firstLine(e) };
  }
  const out = { available: true, mode: backend.mode, webgl: await webglInfo(), cases: [] };
  const gpu = new Runtime(backend);
  const budget = config.budgets.gpu;
  try {
    const cases = gpuCases(config.gpu);
    for (const c of cases) out.cases.push(await timeCase(c, gpu, backend, ours, budget));
    const pipeline = await pipelineRows(createGpuBackend, backend, stagedCases(config.gpu), budget);
    if (pipeline) out.pipeline = pipeline;
  } finally {
    backend.destroy();
  }
  return out;
}

/** The calls, smallest first within each op, built outside the clock. */
function gpuCases({ density, spmm, nnz }) {
  const cases = [];
  for (const [i, { m, n }] of spmm.entries()) {
    const a = randomCoo(m, m, density, 7100 + i);
    const b = tensor(randomDense(m, n, 7200 + i), 'float32', [m, n]);
    cases.push({
      op: 'sparse_tensor_dense_matmul',
      size: `A ${m}×${m} at ${density * 100}%, B ${m}×${n}`,
      nnz: a.rows.length,
      args: { sp_a: toSparse(a), b },
    });
  }
  for (const [i, target] of nnz.entries()) {
    const side = Math.round(Math.sqrt(target / density));
    const a = randomCoo(side, side, density, 7300 + i);
    const b = randomCoo(side, side, density, 7400 + i);
    const size = `${side}×${side} at ${density * 100}%`;
    cases.push({
      op: 'sparse_add',
      size: `two of ${size}`,
      nnz: a.rows.length + b.rows.length,
      args: { a: toSparse(a), b: toSparse(b) },
    });
    cases.push({
      op: 'sparse_reduce_sum',
      size: `${size}, axis 1`,
      nnz: a.rows.length,
      args: { sp_input: toSparse(a), axis: 1 },
    });
  }
  const order = ['sparse_tensor_dense_matmul', 'sparse_add', 'sparse_reduce_sum'];
  return cases.sort((x, y) => order.indexOf(x.op) - order.indexOf(y.op));
}

/**
 * Calls of more than one GPU stage, where pipelining can save anything: SpMM with adjoint_b (a transpose of B, then
 * the product), dense × sparse (the product, then its transpose) and softmax (row stats, then one value per entry),
 * at the largest SpMM size.
 */
function stagedCases({ density, spmm }) {
  const { m, n } = spmm[spmm.length - 1];
  const a = toSparse(randomCoo(m, m, density, 7500));
  const bT = tensor(randomDense(n, m, 7600), 'float32', [n, m]);
  const size = `A ${m}×${m} at ${density * 100}%, B ${m}×${n}`;
  return [
    { op: 'sparse_tensor_dense_matmul', size: `${size}, adjoint_b`, args: { sp_a: a, b: bT, adjoint_b: true } },
    { op: 'sparse_tensor_dense_matmul', size: `dense ${n}×${m} × A`, args: { sp_a: bT, b: a } },
    { op: 'sparse_softmax', size: `A ${m}×${m} at ${density * 100}%`, args: { sp_input: a } },
  ];
}

/** One call: the first (timed alone: it compiles), then the later ones against js and wasm, with the compile counts. */
async function timeCase({ op, size, nnz, args }, gpu, backend, ours, budget) {
  const row = { op, size, nnz };
  process.stderr.write(`gpu: ${op}, ${size}\n`);
  const before = backend.kernelsCompiled();
  try {
    const t0 = performance.now();
    const { delegated } = gpu.runWithReport(op, args);
    row.first_ms = performance.now() - t0;
    if (delegated) row.delegated = delegated;
  } catch (e) {
    row.error = firstLine(e);
    return row;
  }
  const afterFirst = backend.kernelsCompiled();
  row.results = await measure(
    [['gpu', () => gpu.run(op, args)], ...ours.map(({ name, rt }) => [name, () => rt.run(op, args)])],
    budget,
  );
  row.compiled = { before, first_call: afterFirst - before, later_calls: backend.kernelsCompiled() - afterFirst };
  return row;
}

/**
 * Pipelined against read back between stages, when the backend has the option: a backend of each setting (the
 * given one where it already is), both honouring it, the same calls on each. undefined (no row) when the backend
 * exposes no `pipeline`.
 */
async function pipelineRows(createGpuBackend, backend, cases, budget) {
  if (!('pipeline' in backend)) return undefined;
  const own = [];
  const withPipeline = async (on) => {
    if (backend.pipeline === on) return backend;
    const b = await createGpuBackend({ pipeline: on });
    own.push(b);
    return b;
  };
  try {
    const [on, off] = [await withPipeline(true), await withPipeline(false)];
    if (on.pipeline !== true || off.pipeline !== false)
      return {
        note: `createGpuBackend({ pipeline }) was not honoured (got ${on.pipeline} and ${off.pipeline}): no comparison`,
      };
    const [rOn, rOff] = [new Runtime(on), new Runtime(off)];
    const rows = [];
    for (const { op, size, args } of cases) {
      // Untimed first calls: each backend compiles its own kernels.
      rOn.run(op, args);
      rOff.run(op, args);
      const reads = [on, off].map((b) => {
        const before = b.readBacks();
        (b === on ? rOn : rOff).run(op, args);
        return b.readBacks() - before;
      });
      rows.push({
        op,
        size,
        read_backs: { pipelined: reads[0], 'read back': reads[1] },
        results: await measure(
          [
            ['pipelined', () => rOn.run(op, args)],
            ['read back', () => rOff.run(op, args)],
          ],
          budget,
        ),
      });
    }
    return { default: backend.pipeline, rows };
  } catch (e) {
    return { error: firstLine(e) };
  } finally {
    for (const b of own) b.destroy();
  }
}

/** What WebGL is here: headless-gl's renderer and limits in Node, and whether a GPU device exists at all. */
async function webglInfo() {
  const info = {};
  if (process.platform === 'linux')
    info.gpu_device = existsSync('/dev/dri') ? '/dev/dri present' : 'none (no /dev/dri): WebGL renders in software';
  try {
    const createGl = (await import('gl')).default;
    const gl = createGl(1, 1);
    Object.assign(info, {
      renderer: gl.getParameter(gl.RENDERER),
      version: gl.getParameter(gl.VERSION),
      max_texture_size: gl.getParameter(gl.MAX_TEXTURE_SIZE),
    });
    gl.getExtension('STACKGL_destroy_context')?.destroy();
  } catch (e) {
    info.error = firstLine(e);
  }
  return info;
}
