// Sparse × sparse (SpGEMM): sparse_matrix_sparse_mat_mul on our backends against scipy's `csr @ csr`, in the same
// run on the same matrices: two random square matrices at 1% and 0.1% (A·B), and a power-law graph's adjacency
// matrix times itself (A·A: the paths of two steps). Operands are built once, outside the clock, as CsrMatrix (and
// as scipy csr_matrix in the peer). scipy drops sums that cancel to 0 and leaves each row's columns unsorted; ours
// keeps them and sorts (TensorFlow's CPU kernel): the output sizes may differ by those cancellations only.
import { join } from 'node:path';
import { CsrMatrix } from '@sparse/runtime';
import { powerLawCoo, randomCoo, writeCoo } from '../lib/data.mjs';
import { measure } from '../lib/measure.mjs';
import { pyBudget } from '../lib/peers.mjs';

export async function spgemm(ctx) {
  const { config, ours, peers } = ctx;
  const cases = config.spgemm.map((c, i) => {
    const a = c.graph ? powerLawCoo(c.n, c.degree, 31 + i) : randomCoo(c.n, c.n, c.density, 41 + i);
    const b = c.graph ? a : randomCoo(c.n, c.n, c.density, 51 + i);
    const name = c.graph ? `graph_${c.n}` : `random_${c.n}_${c.density * 100}pct`;
    const dir = join(ctx.work, 'spgemm', name);
    writeCoo(dir, a);
    writeCoo(dir, b, '2');
    const what = c.graph
      ? `power-law graph, ${c.n} nodes, ${a.rows.length} edges (A·A)`
      : `${c.n}×${c.n} at ${c.density * 100}%, ${a.rows.length} and ${b.rows.length} stored (A·B)`;
    return { name, what, dir, n: c.n, a: toCsr(a), b: toCsr(b), nnz: [a.rows.length, b.rows.length] };
  });
  const results = {};
  const info = {};
  const tasks = [];
  for (const c of cases) {
    results[c.name] = {};
    info[c.name] = { work: c.what, nnz: c.nnz, delegated: {}, out_nnz: {} };
    for (const { name, rt } of ours) {
      const args = { a: c.a, b: c.b };
      const { outputs, delegated } = rt.runWithReport('sparse_matrix_sparse_mat_mul', args);
      if (delegated) info[c.name].delegated[name] = delegated;
      info[c.name].out_nnz[name] = outputs.output.nnz;
      tasks.push([`${c.name}/${name}`, () => rt.run('sparse_matrix_sparse_mat_mul', args).output.dispose()]);
    }
  }
  for (const [key, r] of Object.entries(await measure(tasks, config.budgets.ops))) {
    const [c, name] = key.split('/');
    results[c][name] = r;
  }
  const py = peers.python(
    cases.map((c) => ({
      name: c.name,
      kind: 'spgemm',
      dir: c.dir,
      shape: [c.n, c.n],
      ...pyBudget(config.budgets.ops),
    })),
  );
  for (const c of cases) {
    const r = py?.tasks[`${c.name}/scipy`];
    if (!r) continue;
    const { out_size, impl, lib, ...rest } = r;
    results[c.name].scipy = rest;
    info[c.name].peer = `${lib}: ${impl}`;
    if (out_size !== undefined) info[c.name].out_nnz.scipy = out_size;
  }
  return { results, info };
}

/** A CsrMatrix (float32) of a canonical COO triple. */
function toCsr(c) {
  const [rows] = c.shape;
  const rowPointers = new Int32Array(rows + 1);
  for (const r of c.rows) rowPointers[r + 1]++;
  for (let r = 0; r < rows; r++) rowPointers[r + 1] += rowPointers[r];
  return new CsrMatrix(rowPointers, c.cols, c.vals, c.shape, 'float32');
}
