// The soak run of tests/soak at length: `node bench/soak.mjs --seconds 600 [--concurrency 8] [--rate 100] [--seed 27]` (or
// `npm run bench:soak -- --seconds 600`). Prints the same figures as the test and exits 1 if anything failed.
import { parseArgs } from 'node:util';
import { runSoak } from '../tests/soak/load.mjs';
import { formatReport, problems } from '../tests/soak/report.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '600' },
    concurrency: { type: 'string', default: '8' },
    rate: { type: 'string', default: '100' },
    seed: { type: 'string', default: '27' },
  },
});
const report = await runSoak({
  seconds: Number(values.seconds),
  concurrency: Number(values.concurrency),
  rate: Number(values.rate),
  seed: Number(values.seed),
  onProgress: progress(),
});
console.log(formatReport(report));
const wrong = problems(report);
for (const p of wrong) console.log(`FAILED: ${p}`);
process.exitCode = wrong.length ? 1 : 0;

/** A line every 30 s, so a long run shows it is alive. */
function progress() {
  let next = Date.now() + 30_000;
  return (r) => {
    if (Date.now() < next) return;
    next += 30_000;
    const rss = r.rss.at(-1)?.[1] ?? 0;
    console.log(`  ${r.requests} requests, ${r.failures} wrong, RSS ${(rss / 2 ** 20).toFixed(0)} MiB`);
  };
}
