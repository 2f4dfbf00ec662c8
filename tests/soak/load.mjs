// The soak run: starts the service (service.mjs) in a child process, keeps a fixed number of requests in flight
// for the given time (requests.mjs), checks every answer, samples the child's resident memory, and returns the
// figures (report.mjs judges and prints them). Shared by tests/soak/soak.test.ts and bench/soak.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { httpSend, rawSend } from './client.mjs';
import { requestStream } from './requests.mjs';

const SERVICE = fileURLToPath(new URL('./service.mjs', import.meta.url));
const MENU_IDS = [
  'sparse_tensor_to_dense',
  'sparse_reduce_sum',
  'sparse_tensor_dense_matmul',
  'sparse_add',
  'sparse_reorder',
  'sparse_segment_sum',
  'sparse_bincount',
];
const RUNTIME_ERRORS = new Set(['InvalidArgumentError', 'TypeError', 'ResourceExhaustedError']);

/** The child's resident set in bytes, from /proc where there is one, else from `ps`; undefined once it is gone. */
function rssOf(pid) {
  try {
    const kb = existsSync('/proc/self/status')
      ? /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
      : execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

function startService(env) {
  const child = spawn(process.execPath, [SERVICE], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const state = { child, exit: null, stderr: '' };
  child.on('exit', (code, signal) => (state.exit = { code, signal, at: Date.now() }));
  child.stderr.on('data', (d) => (state.stderr = (state.stderr + d).slice(-16_000)));
  const ready = new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve(JSON.parse(line));
    });
    child.on('exit', () => reject(new Error(`the service exited before listening: ${state.stderr}`)));
  });
  return { state, ready };
}

/**
 * Deep equality of the service's JSON against the oracle's, floats within `tol` relative (NaN and Infinity come as
 * names): null, or where they differ. The path is built only on the way out of a difference.
 */
function mismatch(expect, got, tol) {
  if (typeof expect === 'number' && typeof got === 'number') {
    return Math.abs(expect - got) <= tol * (1 + Math.abs(expect)) ? null : `: ${got}, expected ${expect}`;
  }
  if (Array.isArray(expect)) {
    if (!Array.isArray(got) || got.length !== expect.length)
      return `: ${JSON.stringify(got)?.slice(0, 200)}, expected ${expect.length} items`;
    for (let i = 0; i < expect.length; i++) {
      const m = mismatch(expect[i], got[i], tol);
      if (m) return `[${i}]${m}`;
    }
    return null;
  }
  if (typeof expect === 'object' && expect !== null) {
    if (typeof got !== 'object' || got === null) return `: ${JSON.stringify(got)}, expected an object`;
    for (const k of Object.keys(expect)) {
      const m = mismatch(expect[k], got[k], tol);
      if (m) return `.${k}${m}`;
    }
    return null;
  }
  return expect === got ? null : `: ${JSON.stringify(got)}, expected ${JSON.stringify(expect)}`;
}

/** What went wrong with one answer, or null. */
function judge(req, res) {
  if (res.outcome === 'client abort') return req.statuses === null ? null : 'the client aborted';
  if (res.outcome) return `${res.outcome}${res.detail ? ` (${res.detail})` : ''}`;
  let body;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = undefined;
  }
  if (req.kind === 'valid') {
    if (res.status !== 200) return `status ${res.status}: ${res.body.slice(0, 300)}`;
    const m = mismatch(req.expect, body?.outputs, req.tolerance);
    return m && `outputs${m}`;
  }
  if (req.statuses === null) return null;
  if (!req.statuses.includes(res.status))
    return `status ${res.status} (expected ${req.statuses}): ${res.body.slice(0, 300)}`;
  // The runtime's own errors name the op.
  if (RUNTIME_ERRORS.has(body?.error) && !MENU_IDS.some((id) => body.message.startsWith(`${id}: `)))
    return `${body.error} without the op's name: ${body.message.slice(0, 300)}`;
  return null;
}

const kindOf = (res) => {
  if (res.outcome) return res.outcome;
  try {
    const error = JSON.parse(res.body).error;
    return error ? `${res.status} ${error}` : String(res.status);
  } catch {
    return String(res.status);
  }
};

/**
 * Runs the soak for `seconds` with `concurrency` requests in flight, starting at most `rate` a second (so that the
 * run leaves the machine usable beside it and its count is predictable). `warmupSeconds` (default a quarter of the run,
 * at least 5 s) ends the warm-up: RSS from then on is compared with RSS then.
 */
export async function runSoak({
  seconds,
  concurrency = 8,
  rate = 100,
  seed = 27,
  warmupSeconds,
  env = {},
  onProgress,
} = {}) {
  const { state, ready } = startService(env);
  const info = await ready;
  const started = Date.now();
  const deadline = started + seconds * 1000;
  const warmupEnd = started + 1000 * (warmupSeconds ?? Math.max(5, seconds / 4));
  const nextRequest = requestStream(seed);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const report = {
    seconds,
    concurrency,
    rate,
    seed,
    threads: info.threads,
    maxBytes: info.maxBytes,
    requests: 0,
    valid: 0,
    hostile: 0,
    kinds: {},
    hostileNames: {},
    failures: 0,
    failureSamples: [],
    latencyValid: [],
    latencyHostile: [],
    slowest: [],
    rss: [],
    warmupEnd: warmupEnd - started,
  };
  const sampler = setInterval(() => {
    const rss = rssOf(state.child.pid);
    if (rss !== undefined && !state.exit) report.rss.push([Date.now() - started, rss]);
  }, 250);
  report.stats = [];
  const statsTimer = setInterval(async () => {
    const res = await httpSend(undefined, info.port, {
      method: 'GET',
      path: '/stats',
      type: 'application/json',
      body: '',
    });
    if (res.status === 200) report.stats.push([Date.now() - started, JSON.parse(res.body)]);
  }, 5000);
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  let slowInFlight = false;
  let nextStart = performance.now();
  const worker = async () => {
    while (Date.now() < deadline && !state.exit) {
      // Each worker takes the next start slot, 1/rate apart, and waits for it.
      const slot = (nextStart = Math.max(nextStart + 1000 / rate, performance.now()));
      if (slot > performance.now()) await new Promise((resolve) => setTimeout(resolve, slot - performance.now()));
      if (Date.now() >= deadline || state.exit) break;
      const req = nextRequest(slowInFlight);
      if (req.slow) slowInFlight = true;
      const t0 = performance.now();
      const res =
        req.send.via === 'raw' ? await rawSend(info.port, req.send) : await httpSend(agent, info.port, req.send);
      const ms = performance.now() - t0;
      if (req.slow) slowInFlight = false;
      report.requests++;
      report[req.kind]++;
      const kind = kindOf(res);
      report.kinds[kind] = (report.kinds[kind] ?? 0) + 1;
      if (req.kind === 'hostile') report.hostileNames[req.name] = (report.hostileNames[req.name] ?? 0) + 1;
      if (req.kind === 'valid' && !req.send.slow) report.latencyValid.push(ms);
      if (req.kind === 'hostile' && !req.slow && !res.outcome) report.latencyHostile.push(ms);
      if (!req.slow && !req.send.slow && !res.outcome) noteSlowest(report.slowest, ms, req.name);
      const wrong = judge(req, res);
      if (wrong) {
        report.failures++;
        if (report.failureSamples.length < 20)
          report.failureSamples.push({ kind: req.kind, name: req.name, wrong, request: describeSend(req.send) });
      }
      onProgress?.(report);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  clearInterval(sampler);
  clearInterval(statsTimer);
  loopDelay.disable();
  report.loopDelayMaxMs = { generator: loopDelay.max / 1e6, service: report.stats.at(-1)?.[1].loopDelayMaxMs };
  agent.destroy();
  report.diedDuringRun = state.exit;
  if (!state.exit) {
    state.child.kill('SIGTERM');
    const t = Date.now();
    while (!state.exit && Date.now() - t < 10_000) await new Promise((resolve) => setTimeout(resolve, 50));
    report.exitAfterSigterm = state.exit ?? 'still running 10 s after SIGTERM';
    if (!state.exit) state.child.kill('SIGKILL');
  }
  report.stderr = state.stderr;
  report.wallSeconds = (Date.now() - started) / 1000;
  return report;
}

/** Keeps the five slowest answers (not counting deliberately slow ones), to say what the tail latency is made of. */
function noteSlowest(slowest, ms, name) {
  if (slowest.length === 5 && ms <= slowest[4].ms) return;
  slowest.push({ ms: Math.round(ms), name });
  slowest.sort((a, b) => b.ms - a.ms);
  slowest.length = Math.min(slowest.length, 5);
}

function describeSend(send) {
  const text = send.via === 'raw' ? send.bytes : `${send.method} ${send.path} ${send.type} ${send.body}`;
  return text.length > 400 ? `${text.slice(0, 400)}… (${text.length} chars)` : text;
}
