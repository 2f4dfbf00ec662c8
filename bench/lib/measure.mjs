// Timing and the statistics on timings: tinybench runs (warm-up, then at least `iterations` calls and at least
// `time` ms per task), reported as median with min and max; checksums that show every peer computed the same
// product; and the least-squares growth exponent of a scaling run.
import { Bench } from 'tinybench';

/**
 * Times each [name, fn] in turn. `budget` = {time, iterations, warmupTime, warmupIterations}. A task that
 * throws is recorded as {error}, not a crash. Returns {name: {median_ms, min_ms, max_ms, samples} | {error}}.
 */
export async function measure(tasks, budget) {
  const bench = new Bench({
    time: budget.time,
    iterations: budget.iterations,
    warmupTime: budget.warmupTime,
    warmupIterations: budget.warmupIterations,
    throws: false,
  });
  for (const [name, fn] of tasks) bench.add(name, fn);
  await bench.run();
  const out = {};
  for (const t of bench.tasks) {
    const r = t.result;
    if (r?.state === 'completed' && r.latency) {
      const l = r.latency;
      out[t.name] = { median_ms: l.p50, min_ms: l.min, max_ms: l.max, samples: l.samplesCount };
    } else {
      const e = r?.error;
      out[t.name] = { error: String(e?.message ?? e ?? r?.state ?? 'did not run').split('\n')[0] };
      console.error(`  ${t.name}: ${out[t.name].error}`);
    }
  }
  return out;
}

/** Sum of |x| in double precision: order-insensitive enough to compare float32 products across libraries. */
export function absSum(a) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]);
  return s;
}

/** Whether two checksums agree within a relative tolerance (float32 sums in different orders differ slightly). */
export function sameChecksum(x, y, rel = 1e-3) {
  if (x === undefined || y === undefined) return undefined;
  return Math.abs(x - y) <= rel * Math.max(1, Math.abs(x), Math.abs(y));
}

/**
 * The growth exponent b of t ≈ c·nnz^b: the least-squares slope of log t on log nnz. Also the slope that
 * n·log n itself would show over the same points, as the reference for "n log n" (slightly above 1).
 */
export function logLogSlope(points) {
  const ok = points.filter((p) => p.x > 0 && p.y > 0);
  if (ok.length < 2) return undefined;
  const fit = (f) => {
    const xs = ok.map((p) => Math.log(p.x));
    const ys = ok.map((p) => Math.log(f(p)));
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    let num = 0;
    let den = 0;
    for (let i = 0; i < xs.length; i++) {
      num += (xs[i] - mx) * (ys[i] - my);
      den += (xs[i] - mx) ** 2;
    }
    return num / den;
  };
  return { slope: fit((p) => p.y), nlogn_slope: fit((p) => p.x * Math.log(p.x)), points: ok.length };
}

/** The geometric mean of positive numbers (undefined if none). */
export function geomean(xs) {
  const ok = xs.filter((x) => x > 0 && Number.isFinite(x));
  return ok.length ? Math.exp(ok.reduce((a, x) => a + Math.log(x), 0) / ok.length) : undefined;
}

/** Disposes every output of a call (a result disposed as made: its memory serves the next result of its size). */
export function disposeAll(outputs) {
  for (const v of Object.values(outputs)) for (const t of Array.isArray(v) ? v : [v]) t?.dispose?.();
}
