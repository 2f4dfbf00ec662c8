// Embedding lookups: embedding_lookup_sparse (combiner sum, no weights) of `ids` ids into a vocab×dim float32 table,
// in `batch` rows of 1 to 2·ids/batch - 1 ids each, on each of our backends against numpy doing the same gather +
// segment sum on the same data. The table and the ids are built once, outside the clock; repeated calls on them.
import { join } from 'node:path';
import { SparseTensor, tensor } from '@sparse/runtime';
import { randomDense, writeArray } from '../lib/data.mjs';
import { absSum, measure, sameChecksum } from '../lib/measure.mjs';
import { pyBudget } from '../lib/peers.mjs';

export async function embeddingSection(ctx) {
  const { config, ours, peers } = ctx;
  const { vocab, dim, ids: n, batch } = config.embedding;
  const table = randomDense(vocab, dim, 31);
  // Row of each id: sorted uniform draws in [0, batch) (every row holds about n/batch ids); the ids uniform in [0, vocab).
  const draws = randomDense(2, n, 32);
  const rows = Int32Array.from(draws.subarray(0, n), (u) => Math.floor(((u + 1) / 2) * batch)).sort();
  const ids = Int32Array.from(draws.subarray(n), (u) => Math.floor(((u + 1) / 2) * vocab));
  const indices = new Float64Array(2 * n);
  let width = 0;
  for (let i = 0, j = 0; i < n; i++) {
    j = i > 0 && rows[i] === rows[i - 1] ? j + 1 : 0;
    indices[2 * i] = rows[i];
    indices[2 * i + 1] = j;
    width = Math.max(width, j + 1);
  }
  const dir = join(ctx.work, 'embedding');
  writeArray(dir, 'params.bin', table);
  writeArray(dir, 'rows.bin', rows);
  writeArray(dir, 'ids.bin', ids);
  process.stderr.write(`embedding: ${n} ids into ${vocab}×${dim}, ${batch} rows\n`);

  const args = {
    params: tensor(table, 'float32', [vocab, dim]),
    sp_ids: new SparseTensor(indices, ids, [batch, width], 'int32'),
    sp_weights: null,
    combiner: 'sum',
  };
  const results = {};
  const checksums = {};
  const delegated = {};
  const tasks = [];
  for (const { name, rt } of ours) {
    try {
      const { outputs, delegated: why } = rt.runWithReport('embedding_lookup_sparse', args);
      if (why) delegated[name] = why;
      checksums[name] = absSum(outputs.output.dataSync());
    } catch (e) {
      results[name] = { error: String(e.message).split('\n')[0] };
      continue;
    }
    tasks.push([name, () => rt.run('embedding_lookup_sparse', args)]);
  }
  Object.assign(results, await measure(tasks, config.budgets.ops));
  const resident = Object.fromEntries(ours.map(({ name, rt }) => [name, rt.memory?.().residentBytes ?? 0]));

  const py = peers.python([
    { name: 'embedding', kind: 'embedding_sum', dir, shape: [vocab, dim], ...pyBudget(config.budgets.ops) },
  ]);
  const peer = py?.tasks['embedding/scipy'];
  let impl;
  if (peer) {
    const { median_ms, min_ms, max_ms, samples, error } = peer;
    results.numpy = error ? { error } : { median_ms, min_ms, max_ms, samples };
    impl = `${peer.lib}: ${peer.impl}`;
    checksums.numpy = peer.checksum;
  }
  const mismatches = Object.entries(checksums)
    .filter(([name, c]) => name !== 'numpy' && sameChecksum(c, checksums.numpy) === false)
    .map(([name, c]) => `${name} ${c} vs numpy ${checksums.numpy}`);
  return { vocab, dim, ids: n, batch, results, delegated, resident_bytes: resident, peer: impl, mismatches };
}
