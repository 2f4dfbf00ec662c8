import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript modules, shared with bench/soak.mjs
import { runSoak } from './load.mjs';
// @ts-expect-error: plain JavaScript modules, shared with bench/soak.mjs
import { formatReport, problems } from './report.mjs';

// The soak: the HTTP service of service.mjs (the runtime on wasm, two threads, an 8 MiB byte budget) in a child
// process, 8 requests in flight for SOAK_SECONDS (default 120, at most 600), mixed valid requests checked against
// a plain-JS oracle and hostile ones that must each get their 4xx. `npm run bench:soak` runs it longer.
const SECONDS = Math.min(600, Math.max(10, Number(process.env.SOAK_SECONDS ?? 120)));

describe('soak: an HTTP service on the runtime under mixed valid and hostile load', () => {
  it(
    `lives, answers every valid request rightly and every hostile one with its 4xx, and keeps RSS flat (${SECONDS} s)`,
    async () => {
      const report = await runSoak({ seconds: SECONDS, seed: Number(process.env.SOAK_SEED ?? 27) });
      console.log(formatReport(report));
      expect(problems(report)).toEqual([]);
    },
    (SECONDS + 120) * 1000,
  );
});
