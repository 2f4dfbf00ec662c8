// Wall-clock times on a shared machine, made comparable: every contender (our whole call, its stages, scipy,
// the native loop) takes a short turn in each round, rounds repeat, and the report keeps medians over rounds of
// each turn's median and of each round's ratios. A slow minute then slows every contender of that round alike.
import { absSum, sameChecksum } from '../lib/measure.mjs';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};

/** Calls of `fn` in one turn: enough for ~`turnMs`, at least 3. */
function callsFor(ms, turnMs) {
  return Math.max(3, Math.min(200, Math.ceil(turnMs / Math.max(ms, 1e-3))));
}

/** One turn of an in-process contender: the median call and the minor page faults per call (fresh memory). */
function timeTurn(fn, calls) {
  const t = [];
  const f0 = process.resourceUsage().minorPageFault;
  for (let i = 0; i < calls; i++) {
    const s = performance.now();
    fn();
    t.push(performance.now() - s);
  }
  return { ms: median(t), faults: (process.resourceUsage().minorPageFault - f0) / calls };
}

/**
 * contenders: [{name, fn}] (in-process, sync) or [{name, turn: async (calls) => median_ms, estimateMs}].
 * Returns {rounds, results: {name: {median_ms, min_ms, calls, page_faults}}, ratio(a, b) → median over rounds
 * of a/b}. page_faults (in-process contenders): minor faults per call, the cost of touching fresh memory.
 */
export async function race(contenders, { rounds = 15, turnMs = 60, log = () => {} } = {}) {
  const plan = contenders.map((c) => {
    if (c.fn) {
      for (let i = 0; i < 2; i++) c.fn();
      const s = performance.now();
      c.fn();
      return { ...c, calls: callsFor(performance.now() - s, turnMs) };
    }
    return { ...c, calls: callsFor(c.estimateMs, turnMs) };
  });
  const perRound = new Map(plan.map((c) => [c.name, []]));
  const faults = new Map(plan.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) {
    // Rotate who goes first, so no contender always follows the same neighbour.
    for (let i = 0; i < plan.length; i++) {
      const c = plan[(i + r) % plan.length];
      if (c.fn) {
        const { ms, faults: f } = timeTurn(c.fn, c.calls);
        perRound.get(c.name).push(ms);
        faults.get(c.name).push(f);
      } else perRound.get(c.name).push(await c.turn(c.calls));
    }
    log(`race round ${r + 1}/${rounds}`);
  }
  const results = {};
  for (const c of plan) {
    const xs = perRound.get(c.name);
    results[c.name] = {
      median_ms: median(xs),
      min_ms: Math.min(...xs),
      calls: c.calls,
      ...(c.fn ? { page_faults: median(faults.get(c.name)) } : {}),
    };
  }
  const ratio = (a, b) =>
    perRound.has(a) && perRound.has(b) ? median(perRound.get(a).map((x, i) => x / perRound.get(b)[i])) : undefined;
  return { rounds, results, ratio };
}

/** Whether our output and a peer's checksum agree (sum of |C|, float32 sums in another order). */
export function agrees(output, peerChecksum) {
  return sameChecksum(absSum(output), peerChecksum);
}
