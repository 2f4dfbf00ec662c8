// TensorFlow's sparse-vs-dense matmul table, reproduced and extended: for each point (density, n, m, k) our
// sparse_tensor_dense_matmul on every backend against a dense matmul of the densified A (TensorFlow.js tf.matMul
// on cpu and wasm; numpy's BLAS), plus scipy CSR and the native C++ CSR loop, all on the same data.
import { join } from 'node:path';
import { tensor } from '@sparse/runtime';
import { densify, randomCoo, randomDense, toSparse, writeArray, writeCoo } from '../lib/data.mjs';
import { absSum, disposeAll, measure, sameChecksum } from '../lib/measure.mjs';
import { pyBudget } from '../lib/peers.mjs';
import { consume, useTfjs } from '../lib/tfjs.mjs';
import { densePair } from '../lib/summary.mjs';
import { tfPublished } from '../lib/tf-published.mjs';

const pointId = (p) => `d${p.density}-n${p.n}-m${p.m}-k${p.k}`;

export async function spmmGrid(ctx) {
  const { config, ours, tf, tfBackends, peers } = ctx;
  const points = [];
  const pyTasks = [];
  for (const [i, p] of config.grid.entries()) {
    const budget = p.extended ? config.budgets.heavy : config.budgets.grid;
    const sparseBudget = p.extended ? config.budgets.sparseHeavy : config.budgets.grid;
    const id = pointId(p);
    const coo = randomCoo(p.m, p.k, p.density, 1000 + i);
    const bData = randomDense(p.k, p.n, 2000 + i);
    const dir = join(ctx.work, 'grid', id);
    writeCoo(dir, coo);
    writeArray(dir, 'b.bin', bData);
    const point = { ...p, nnz: coo.rows.length, results: {}, checksums: {} };
    process.stderr.write(`grid ${id} (${point.nnz} stored)\n`);

    // Ours, every backend, in one tinybench run.
    const a = toSparse(coo);
    const b = tensor(bData, 'float32', [p.k, p.n]);
    const tasks = [];
    for (const { name, rt } of ours) {
      const args = { sp_a: a, b };
      try {
        point.checksums[`sparse/${name}`] = absSum(rt.run('sparse_tensor_dense_matmul', args).output.dataSync());
      } catch (e) {
        point.results[`sparse/${name}`] = { error: String(e.message).split('\n')[0] };
        continue;
      }
      tasks.push([`sparse/${name}`, () => rt.run('sparse_tensor_dense_matmul', args)]);
      // The headline sizes also with each result disposed as made, as TF.js code disposes what it is done with.
      if (p.extended)
        tasks.push([`sparse/${name} disposed`, () => disposeAll(rt.run('sparse_tensor_dense_matmul', args))]);
    }
    Object.assign(point.results, await measure(tasks, sparseBudget));

    // TensorFlow.js dense matmul of the densified A, one backend at a time (its tensors live on one backend).
    if (tf) {
      const aDense = densify(coo);
      for (const tb of tfBackends) {
        await useTfjs(tf, tb);
        const at = tf.tensor2d(aDense, [p.m, p.k], 'float32');
        const bt = tf.tensor2d(bData, [p.k, p.n], 'float32');
        const once = tf.matMul(at, bt);
        point.checksums[`dense/tfjs-${tb}`] = absSum(once.dataSync());
        once.dispose();
        Object.assign(point.results, await measure([[`dense/tfjs-${tb}`, () => consume(tf.matMul(at, bt))]], budget));
        at.dispose();
        bt.dispose();
      }
    }

    // The native C++ loop, on the files just written.
    const nat = peers.spmm(dir, p.m, p.k, p.n, point.nnz, sparseBudget);
    if (nat) {
      const { checksum, ...r } = nat;
      point.results['sparse/native-c++'] = r;
      if (checksum !== undefined) point.checksums['sparse/native-c++'] = checksum;
    }
    pyTasks.push({
      name: id,
      kind: 'spmm',
      dir,
      m: p.m,
      k: p.k,
      n: p.n,
      dense: pyBudget(budget),
      ...pyBudget(sparseBudget),
    });
    points.push(point);
  }

  // scipy CSR and numpy dense, one python process for the whole grid, after our runs (the files stay on disk).
  const py = peers.python(pyTasks);
  for (const point of points) {
    for (const [suffix, key] of [
      ['scipy', 'sparse/scipy'],
      ['numpy-dense', 'dense/numpy'],
    ]) {
      const r = py?.tasks[`${pointId(point)}/${suffix}`];
      if (!r) continue;
      const { checksum, ...rest } = r;
      point.results[key] = rest;
      if (checksum !== undefined) point.checksums[key] = checksum;
    }
    finishPoint(point, ctx);
  }
  return points;
}

/** Ratios of the point, the published TF ratios beside them, and whether every peer computed the same product. */
function finishPoint(point, ctx) {
  const med = (key) => point.results[key]?.median_ms;
  const ratio = (x, y) => (med(x) && med(y) ? med(x) / med(y) : undefined);
  point.ratios = {};
  // sparse/dense per backend: ours on js against TF.js cpu (both plain JS), ours on wasm against TF.js wasm.
  for (const { name } of ctx.ours) {
    point.ratios[`${name}: sparse/dense`] = ratio(`sparse/${name}`, `dense/${densePair(name)}`);
    point.ratios[`${name}: sparse ÷ numpy dense`] = ratio(`sparse/${name}`, 'dense/numpy');
    point.ratios[`${name} ÷ scipy`] = ratio(`sparse/${name}`, 'sparse/scipy');
    point.ratios[`${name} ÷ native C++`] = ratio(`sparse/${name}`, 'sparse/native-c++');
    if (point.extended) point.ratios[`${name} disposed ÷ scipy`] = ratio(`sparse/${name} disposed`, 'sparse/scipy');
  }
  point.ratios['scipy: sparse/dense'] = ratio('sparse/scipy', 'dense/numpy');
  point.ratios['wasm ÷ js'] = ratio('sparse/wasm', 'sparse/js');
  const cpu = tfPublished(point.density, point.n, point.m, point.k, false);
  const gpu = tfPublished(point.density, point.n, point.m, point.k, true);
  point.tf_published = cpu
    ? {
        cpu_ratio: cpu.ratio,
        gpu_ratio: gpu?.ratio,
        cpu_dense_ms: cpu.dense_s * 1e3,
        cpu_sparse_ms: cpu.sparse_s * 1e3,
      }
    : undefined;
  const ref =
    point.checksums['sparse/native-c++'] ?? point.checksums['dense/numpy'] ?? Object.values(point.checksums)[0];
  point.mismatches = Object.entries(point.checksums)
    .filter(([, c]) => sameChecksum(c, ref) === false)
    .map(([k, c]) => `${k}: sum|C| ${c} vs ${ref}`);
  for (const m of point.mismatches) console.error(`  CHECKSUM MISMATCH ${pointId(point)} ${m}`);
}
