// SpGEMM calls whose working memory or entry count the budget must refuse up front (issue 27, items 1-2), on one
// backend under a 256 MiB budget; prints one JSON line per call: how it ended, in how many ms, and how far the
// process's peak resident memory rose. Run in a watched child.
import { createRuntime, CsrMatrix } from '@sparse/runtime';

const backend = process.argv[2];
const rt = await createRuntime({ backend, maxBytes: 2 ** 28 });
// A 1 × n matrix with one entry; n × 1 and 1 × n ones full of entries.
const row = (n) => new CsrMatrix([0, 1], [0], [1], [1, n], 'float32');
const upTo = (n) => Int32Array.from({ length: n }, (_, i) => i);
const ones = (n) => new Float32Array(n).fill(1);
const fullColumn = (n) => new CsrMatrix(upTo(n + 1), new Int32Array(n), ones(n), [n, 1], 'float32');
const fullRow = (n) => new CsrMatrix([0, n], upTo(n), ones(n), [1, n], 'float32');
const calls = [
  ['aᵀ·a, n = 3e8', () => [row(3e8), row(3e8), { transpose_a: true }]],
  ['aᵀ·a, n = 2^31 - 1', () => [row(2 ** 31 - 1), row(2 ** 31 - 1), { transpose_a: true }]],
  ['adjoint aᵀ·a, n = 3e8', () => [row(3e8), row(3e8), { adjoint_a: true }]],
  ['a·aᵀ, n = 3e8', () => [row(3e8), row(3e8), { transpose_b: true }]],
  ['a·aᵀ, n = 2^31 - 1', () => [row(2 ** 31 - 1), row(2 ** 31 - 1), { adjoint_b: true }]],
  ['46341 × 1 · 1 × 46341', () => [fullColumn(46341), fullRow(46341), {}]],
  ['(1 × 46341)ᵀ · 1 × 46341', () => [fullRow(46341), fullRow(46341), { transpose_a: true }]],
];
const rss = () => process.resourceUsage().maxRSS * 1024;
for (const [name, make] of calls) {
  const [a, b, flags] = make();
  const before = rss();
  const t0 = performance.now();
  let outcome;
  try {
    rt.run('sparse_matrix_sparse_mat_mul', { a, b, ...flags });
    outcome = 'result';
  } catch (e) {
    outcome = e instanceof Error ? `${e.name}: ${e.message.slice(0, 300)}` : `thrown ${String(e)}`;
  }
  const ms = performance.now() - t0;
  process.stdout.write(
    `${JSON.stringify({ op: 'sparse_matrix_sparse_mat_mul', name, backend, outcome, ms, rose: rss() - before })}\n`,
  );
}
process.stdout.write(`${JSON.stringify({ maxRssBytes: rss() })}\n`);
