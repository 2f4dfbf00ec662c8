// The soak run's verdict and figures: what must hold (no death, no wrong or failed answer, RSS flat after the
// warm-up) and the numbers printed by the test and the bench.

const MiB = 2 ** 20;

/**
 * How far RSS over the last third of the run (its 90th percentile: a few seconds' spike while large requests overlap
 * is not growth) may rise above RSS at the end of the warm-up. 64 MiB: the service legitimately holds at a time up
 * to 8 request bodies (4 MiB each, several times that once parsed into JS arrays), one call's 8 MiB budget of
 * outputs and working memory and the runtime's pool of reused buffers, and V8 lets its heap grow between
 * collections; a leak of anything per request passes it within the run.
 */
export const RSS_BOUND = 64 * MiB;

export function percentile(xs, p) {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const median = (xs) => percentile(xs, 50);

/** RSS at the end of the warm-up (median of its last 5 s), at the end (median of the last 5 s), peak, last third's p90. */
export function rssFigures(report) {
  const at = (from, to) => report.rss.filter(([t]) => t >= from && t <= to).map(([, b]) => b);
  const endT = report.rss.at(-1)?.[0] ?? 0;
  const start = median(at(report.warmupEnd - 5000, report.warmupEnd));
  const end = median(at(endT - 5000, endT));
  const peak = Math.max(...report.rss.map(([, b]) => b));
  const lastThird = percentile(at(report.seconds * 1000 * (2 / 3), Infinity), 90);
  return { start, end, peak, lastThird };
}

/** Every way the run failed, as sentences; empty when it held. */
export function problems(report) {
  const out = [];
  if (report.diedDuringRun) out.push(`the service died during the run: ${JSON.stringify(report.diedDuringRun)}`);
  if (report.exitAfterSigterm && typeof report.exitAfterSigterm === 'string')
    out.push(`the service ${report.exitAfterSigterm}`);
  if (report.failures > 0) out.push(`${report.failures} requests got a wrong or missing answer`);
  const rss = rssFigures(report);
  if (!(rss.lastThird <= rss.start + RSS_BOUND))
    out.push(
      `RSS rose from ${mib(rss.start)} after warm-up to ${mib(rss.lastThird)} in the last third (bound +${mib(RSS_BOUND)})`,
    );
  if (report.valid === 0) out.push('no valid request was answered');
  return out;
}

const mib = (b) => `${(b / MiB).toFixed(1)} MiB`;
const ms = (x) => `${x.toFixed(1)} ms`;

export function formatReport(report) {
  const rss = rssFigures(report);
  const kinds = Object.entries(report.kinds)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
  const lines = [
    `soak: ${report.seconds} s (${report.wallSeconds.toFixed(1)} s wall), ${report.concurrency} in flight, at most ${report.rate}/s, seed ${report.seed}, ` +
      `service on wasm with ${report.threads} threads, maxBytes ${mib(report.maxBytes)}`,
    `requests: ${report.requests} (${report.valid} valid, each checked against the oracle; ${report.hostile} hostile), ` +
      `${(report.requests / report.wallSeconds).toFixed(0)}/s`,
    `answers by kind: ${kinds}`,
    `hostile requests by name: ${Object.entries(report.hostileNames)
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ')}`,
    `wrong or missing answers: ${report.failures}`,
    `RSS: ${mib(rss.start)} after warm-up (${(report.warmupEnd / 1000).toFixed(0)} s), ${mib(rss.end)} at the end, ` +
      `peak ${mib(rss.peak)}, last third's p90 ${mib(rss.lastThird)} (bound ${mib(rss.start + RSS_BOUND)})`,
    `latency, valid requests: p50 ${ms(percentile(report.latencyValid, 50))}, p99 ${ms(percentile(report.latencyValid, 99))}, ` +
      `max ${ms(Math.max(...report.latencyValid))}; hostile: p50 ${ms(percentile(report.latencyHostile, 50))}, ` +
      `p99 ${ms(percentile(report.latencyHostile, 99))}`,
    `event loop's longest stall: service ${ms(report.loopDelayMaxMs.service ?? NaN)}, generator ${ms(report.loopDelayMaxMs.generator)}`,
    `slowest answers: ${report.slowest.map((x) => `${x.name} ${x.ms} ms`).join(', ')}`,
    `service exit: ${JSON.stringify(report.diedDuringRun ?? report.exitAfterSigterm)}`,
  ];
  const [first, last] = [report.stats.find(([t]) => t >= report.warmupEnd) ?? report.stats[0], report.stats.at(-1)];
  if (first && last) {
    const part = (x) =>
      `heap ${mib(x.heapUsed)}, array buffers ${mib(x.arrayBuffers)}, pooled ${mib(x.pooledBytes)}, resident ${mib(x.residentBytes)}`;
    lines.push(
      `service memory at ${(first[0] / 1000).toFixed(0)} s: ${part(first[1])}; at ${(last[0] / 1000).toFixed(0)} s: ${part(last[1])}`,
    );
  }
  for (const f of report.failureSamples) lines.push(`  ✗ ${f.kind} ${f.name}: ${f.wrong}\n      request: ${f.request}`);
  if (report.stderr) lines.push(`service stderr (tail):\n${report.stderr.slice(-4000)}`);
  return lines.join('\n');
}
