// Scaling: SpMM and reorder time as the stored entries grow 10^4 → 10^7 (quick: → 10^5), with the fitted growth
// exponent (log-log slope) of each backend and peer. A is square with ~8 entries per row (m = k = nnz / 8), so
// the work grows with nnz alone; B has n = 16 columns. reorder sorts the same entries, shuffled.
import { join } from 'node:path';
import { tensor } from '@sparse/runtime';
import { randomCoo, randomDense, shuffled, toSparse, writeArray, writeCoo } from '../lib/data.mjs';
import { logLogSlope, measure } from '../lib/measure.mjs';
import { pyBudget } from '../lib/peers.mjs';

export async function scaling(ctx) {
  const { config, ours, peers } = ctx;
  const { perRow, n } = config.scaling;
  const budget = config.budgets.scaling;
  const points = [];
  const pyTasks = [];
  for (const [i, target] of config.scaling.nnz.entries()) {
    const m = Math.max(1, Math.round(target / perRow));
    const coo = randomCoo(m, m, perRow / m, 3000 + i);
    const bData = randomDense(m, n, 4000 + i);
    const cs = shuffled(coo, 5000 + i);
    const dir = join(ctx.work, 'scaling', String(target));
    writeCoo(dir, coo);
    writeArray(dir, 'b.bin', bData);
    writeCoo(join(dir, 'shuffled'), cs);
    const point = { target_nnz: target, nnz: coo.rows.length, m, k: m, n, results: {} };
    process.stderr.write(`scaling ${coo.rows.length} stored (${m}×${m})\n`);

    const a = toSparse(coo);
    const s = toSparse(cs);
    const b = tensor(bData, 'float32', [m, n]);
    const tasks = [];
    for (const { name, rt } of ours) {
      tasks.push([`spmm/${name}`, () => rt.run('sparse_tensor_dense_matmul', { sp_a: a, b })]);
      tasks.push([`reorder/${name}`, () => rt.run('sparse_reorder', { sp_input: s })]);
    }
    Object.assign(point.results, await measure(tasks, budget));
    const nat = peers.spmm(dir, m, m, n, point.nnz, budget);
    if (nat) {
      const { checksum: _checksum, ...r } = nat;
      point.results['spmm/native-c++'] = r;
    }
    const pb = pyBudget(budget);
    pyTasks.push({ name: `spmm-${target}`, kind: 'spmm', dir, m, k: m, n, ...pb });
    pyTasks.push({ name: `reorder-${target}`, kind: 'reorder', dir: join(dir, 'shuffled'), shape: [m, m], ...pb });
    points.push(point);
  }
  const py = peers.python(pyTasks);
  for (const p of points) {
    const sp = py?.tasks[`spmm-${p.target_nnz}/scipy`];
    const ro = py?.tasks[`reorder-${p.target_nnz}/scipy`];
    if (sp) p.results['spmm/scipy'] = strip(sp);
    if (ro) p.results['reorder/numpy'] = strip(ro);
  }
  // One growth exponent per op and implementation, over every point it completed.
  const series = new Set(points.flatMap((p) => Object.keys(p.results)));
  const fits = {};
  for (const key of [...series].sort()) {
    const pts = points.map((p) => ({ x: p.nnz, y: p.results[key]?.median_ms })).filter((q) => q.y > 0);
    const fit = logLogSlope(pts);
    if (fit) fits[key] = fit;
  }
  return { shape: { per_row: perRow, n }, points, fits };
}

function strip({ checksum: _checksum, impl: _impl, lib: _lib, out_size: _outSize, ...r }) {
  return r;
}
