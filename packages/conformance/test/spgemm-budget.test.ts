import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runWatched } from './watched-child.js';

// Issue 27, items 1-2: SpGEMM with a transposed operand built arrays of the matrix dims (GBs, seconds) before its
// byte budget was checked, and a product past 2^31 - 1 entries ran for seconds into a raw RangeError. Each call
// must now be refused up front (ResourceExhaustedError naming the op, in milliseconds) with the process's peak
// barely moving, on js and wasm; the child is killed if it passes 1 GiB.

const RSS_LIMIT = 2 ** 30;

it.each(['js', 'wasm'])(
  'SpGEMM refuses huge working memory and int32-overflowing products up front (%s)',
  async (backend) => {
    const { lines, peak, killed } = await runWatched(
      [join(import.meta.dirname, 'budgets/run-spgemm.mjs'), backend],
      RSS_LIMIT,
    );
    expect(killed, `the child passed ${RSS_LIMIT} bytes of resident memory`).toBe(false);
    const calls = lines.filter((l) => 'op' in l) as { name: string; outcome: string; ms: number; rose: number }[];
    expect(calls.length).toBe(7);
    for (const c of calls) {
      expect(c.outcome, c.name).toMatch(/^ResourceExhaustedError: sparse_matrix_sparse_mat_mul: /);
      expect(c.ms, c.name).toBeLessThan(200);
      expect(c.rose, c.name).toBeLessThan(32 * 2 ** 20);
    }
    const overflow = calls.filter((c) => c.name.includes('46341'));
    for (const c of overflow) expect(c.outcome).toContain('2147488281 entries');
    expect(peak).toBeLessThan(RSS_LIMIT);
  },
  60_000,
);
