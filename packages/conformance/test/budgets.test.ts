import { join } from 'node:path';
import { listOps } from '@sparse/runtime';
import { expect, it } from 'vitest';
import { runWatched } from './watched-child.js';

// Budgets by construction (issue 27): every op, on hostile-but-valid inputs (its spec examples with every dense
// shape and whole-number argument 10^3 to 3·10^9 times larger: few entries, enormous outputs and scratch), under a
// 32 MiB budget, on js and wasm. Each call must end in a result or a ResourceExhaustedError (or, where the scaling
// made the input invalid, an InvalidArgumentError that is not a failed allocation), and no call may take more
// resident memory than the budget plus a constant: working memory is counted before it is allocated, not found
// afterwards. Each child measures each call's own peak (VmHWM, reset before it) and is killed if it passes 1.5 GiB.

const MAX_BYTES = 32 * 2 ** 20;
// What a call may take beyond its budget: V8's and the allocator's own slack, the JS objects of a result.
const PER_CALL_SLACK = 32 * 2 ** 20;
// What the process may hold beyond its idle baseline and one call's budget: also the garbage of the calls since the
// last collection (the child collects every 64 calls).
const PROCESS_SLACK = 128 * 2 ** 20;
const RSS_LIMIT = 1.5 * 2 ** 30;
const FAILED_ALLOCATION = /memory|allocat|typed array length|array length/i;

interface Call {
  op: string;
  name: string;
  factor: number;
  ints: boolean;
  outcome: string;
  ms: number;
  rose: number;
}

it.each(['js', 'wasm'])(
  'every op stays within its byte budget on hostile inputs (%s)',
  async (backend) => {
    const script = join(import.meta.dirname, 'budgets/run-budgets.mjs');
    const { lines, peak, killed } = await runWatched(
      ['--expose-gc', script, backend, String(MAX_BYTES), '1e3,1e5,1e8,3e9', '100'],
      RSS_LIMIT,
    );
    expect(killed, `the child passed ${RSS_LIMIT} bytes of resident memory`).toBe(false);
    const baseline = lines.find((l) => 'baseline' in l)!.baseline as number;
    const calls = lines.filter((l) => 'outcome' in l) as unknown as Call[];
    // Every op ran, from the specs (listOps), not from a list here.
    expect(new Set(calls.map((c) => c.op))).toEqual(new Set(listOps()));
    const wrong = calls.filter(
      (c) =>
        !(c.outcome === 'result' || c.outcome.startsWith('ResourceExhaustedError: ')) &&
        !(c.outcome.startsWith('InvalidArgumentError: ') && !FAILED_ALLOCATION.test(c.outcome)),
    );
    expect(wrong).toEqual([]);
    const over = calls.filter((c) => c.rose > MAX_BYTES + PER_CALL_SLACK);
    expect(over.map((c) => `${c.op} ${c.name} ×${c.factor}: ${(c.rose / 2 ** 20).toFixed(0)} MiB`)).toEqual([]);
    // A refusal comes before the work, in milliseconds.
    const slowRefusals = calls.filter((c) => c.outcome.startsWith('ResourceExhaustedError') && c.ms > 500);
    expect(slowRefusals.map((c) => `${c.op} ${c.name} ×${c.factor}: ${c.ms} ms`)).toEqual([]);
    expect(calls.filter((c) => c.outcome.startsWith('ResourceExhaustedError')).length).toBeGreaterThan(50);
    expect(peak - baseline).toBeLessThan(MAX_BYTES + PROCESS_SLACK);
  },
  120_000,
);
