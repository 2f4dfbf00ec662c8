import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runWatched } from './watched-child.js';

// Input that would take the process down must end in a result or a documented error, on js and wasm, in a process
// that never passes its memory limit: valid input whose outputs would be enormous (every spec example with its
// dense shapes 10^4 and 10^6 times larger), and request bodies that lie (every tensor argument of every op). The
// child is watched from here (watched-child.ts).

const RSS_LIMIT = 1.5 * 2 ** 30;
const DOCUMENTED = /^(InvalidArgumentError|TypeError|ResourceExhaustedError|UnimplementedError):/;

it('huge but valid dense shapes: every op ends in a result or a documented error, within the memory limit', async () => {
  const { lines, peak, killed } = await runWatched(
    [join(import.meta.dirname, 'memory-watchdog/run-scaled.mjs'), '1e4,1e6', String(2 ** 28)],
    RSS_LIMIT,
  );
  expect(killed, `the child passed ${RSS_LIMIT} bytes of resident memory`).toBe(false);
  const calls = lines.filter((l) => 'op' in l) as { backend: string; op: string; name: string; outcome: string }[];
  expect(calls.length).toBeGreaterThan(100);
  const undocumented = calls.filter((c) => c.outcome !== 'result' && !DOCUMENTED.test(c.outcome));
  expect(undocumented).toEqual([]);
  // The budget did its work: some outputs were refused for size, before allocation.
  expect(calls.some((c) => c.outcome.startsWith('ResourceExhaustedError'))).toBe(true);
  expect(peak).toBeLessThan(RSS_LIMIT);
}, 300_000);

it('hostile request bodies: every tensor argument of every op, refused with a documented error', async () => {
  const { lines, peak, killed } = await runWatched(
    [join(import.meta.dirname, 'memory-watchdog/run-hostile.mjs')],
    RSS_LIMIT,
  );
  expect(killed, `the child passed ${RSS_LIMIT} bytes of resident memory`).toBe(false);
  const calls = lines.filter((l) => 'op' in l) as { op: string; arg: string; lie: string; outcome: string }[];
  expect(new Set(calls.map((c) => c.op)).size).toBeGreaterThan(30);
  // A lie is never believed: none of these bodies is valid, so none may come back with a result (one claiming more
  // elements than a dense tensor holds is refused as too large to allocate, a ResourceExhaustedError).
  expect(calls.filter((c) => !/^(InvalidArgumentError|TypeError|ResourceExhaustedError):/.test(c.outcome))).toEqual([]);
  expect(peak).toBeLessThan(RSS_LIMIT);
}, 300_000);
