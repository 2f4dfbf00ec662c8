// Self time by function from a V8 .cpuprofile (node --cpu-prof), over the samples of the profiled loop only:
// from the first to the last sample with `profiledLoop` on its stack (start-up and data loading left out), GC
// and other samples of that window included under their own names ("(garbage collector)"...). Wasm frames get
// their export names (wasm-names.mjs).
import { basename } from 'node:path';

/** [{name, where, samples, ms}] by self time, and {windowMs, samples}; `wasmNames` maps function index → name. */
export function selfTimes(profile, wasmNames = new Map(), root = 'profiledLoop') {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const underRoot = new Map();
  const inLoop = (id) => {
    if (underRoot.has(id)) return underRoot.get(id);
    const n = byId.get(id);
    const v = n.callFrame.functionName === root || (parent.has(id) && inLoop(parent.get(id)));
    underRoot.set(id, v);
    return v;
  };
  const { samples, timeDeltas } = profile;
  const first = samples.findIndex(inLoop);
  let last = samples.length - 1;
  while (last > first && !inLoop(samples[last])) last--;
  if (first < 0) return { functions: [], windowMs: 0, samples: 0 };
  // Sample i stands for the interval up to the next sample.
  const dt = (i) => (i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0) / 1000;
  const acc = new Map();
  let windowMs = 0;
  for (let i = first; i <= last; i++) {
    const f = byId.get(samples[i]).callFrame;
    const wasm = /^wasm-function\[(\d+)\]$/.exec(f.functionName);
    const name = wasm ? `${wasmNames.get(Number(wasm[1])) ?? f.functionName} (wasm)` : f.functionName || '(anonymous)';
    const where = wasm || !f.url ? '' : `${basename(f.url)}:${f.lineNumber + 1}`;
    // The caller too: one helper (a copy into wasm memory, say) can serve two stages of a call.
    const up = parent.has(samples[i]) ? byId.get(parent.get(samples[i])).callFrame.functionName || '(anonymous)' : '';
    const key = `${name}\t${where}\t${up}`;
    const a = acc.get(key) ?? { name, where, caller: up, url: f.url, samples: 0, ms: 0 };
    a.samples++;
    a.ms += dt(i);
    windowMs += dt(i);
    acc.set(key, a);
  }
  return { functions: [...acc.values()].sort((x, y) => y.ms - x.ms), windowMs, samples: last - first + 1 };
}

/** The source lines of a JS function by sampled ticks (V8's positionTicks), over every node of that function. */
export function hotLines(profile, name, url) {
  const ticks = new Map();
  for (const n of profile.nodes) {
    if (n.callFrame.functionName !== name || n.callFrame.url !== url) continue;
    for (const t of n.positionTicks ?? []) ticks.set(t.line, (ticks.get(t.line) ?? 0) + t.ticks);
  }
  const total = [...ticks.values()].reduce((a, b) => a + b, 0);
  return [...ticks].map(([line, t]) => ({ line, share: t / total })).sort((a, b) => b.share - a.share);
}
