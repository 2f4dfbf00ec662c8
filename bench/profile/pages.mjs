// Question 1, the part cachegrind cannot see: address translation. The native loop with its arrays on 4 KB and
// on 2 MB pages, timed in alternation in one process (native/spmm-pages.cpp); the time saved on huge pages is
// the share of TLB misses and page walks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scalingData } from './lib/data.mjs';
import { HERE, run } from './lib/tools.mjs';

/** {rows: [{nnz, small_ms, huge_ms, ratio, huge_kb}], thp, notes}. */
export function pagesExperiment(work, tools, { sizes, rounds, log }) {
  const notes = [];
  let thp = 'unknown';
  try {
    thp = readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8').match(/\[(\w+)\]/)[1];
  } catch {
    // no THP setting to read on this kernel: reported as unknown
  }
  if (!tools.gxx.ok) return { rows: [], thp, notes: [`skipped: ${tools.gxx.reason}`] };
  if (thp === 'never')
    return { rows: [], thp, notes: ['skipped: transparent huge pages are off (never) on this machine'] };
  const exe = join(work, 'spmm-pages');
  const b = run('g++', ['-O3', '-march=native', '-o', exe, join(HERE, 'native', 'spmm-pages.cpp')]);
  if (!b.ok) return { rows: [], thp, notes: [`build failed: ${b.stderr.trim().split('\n').pop()}`] };
  const rows = [];
  for (const t of sizes) {
    const d = scalingData(work, t);
    log(`pages ${d.nnz}`);
    // Many alternations where a call is short: the ratio of two medians of a noisy machine needs them.
    const n = Math.min(20000, Math.max(rounds, Math.round(3e8 / d.nnz)));
    const r = run(exe, [d.dir, d.m, d.k, d.n, d.nnz, n].map(String));
    if (r.ok) rows.push({ nnz: d.nnz, rounds: n, ...JSON.parse(r.stdout) });
    else notes.push(`${d.nnz}: ${r.stderr.trim().split('\n').pop()}`);
  }
  return { rows, thp, notes };
}
