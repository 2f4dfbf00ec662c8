import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The wasm backend's threads fail loudly: a worker that dies, a worker that cannot start and a memory release
// that cannot make a fresh instance each become an error on the call they affect, or a fallback to one thread
// with one warning, never a hang or an unhandled rejection (which would end the child with status 1). Each case
// runs in a child process under a watchdog; the child swaps node:worker_threads' Worker for a stand-in before
// the backend loads (MODE: the real worker, or one that fails at a given point).

const ROOT = join(import.meta.dirname, '../../..');
const WATCHDOG_MS = 60_000;

/** What a stand-in worker runs, by MODE (Word.Seq is word 0 of its slot: it changes when a call is handed over). */
const STAND_INS: Record<string, string> = {
  throw: `throw new Error('a thread that fails at start')`,
  exit: `process.exit(5)`,
  dieOnCall: `
    const { parentPort } = require('node:worker_threads');
    parentPort.once('message', (init) => {
      const seq = new Int32Array(init.slot, 0, 1);
      const seen = Atomics.load(seq, 0);
      parentPort.postMessage('ready');
      Atomics.wait(seq, 0, seen);
      process.exit(3);
    });`,
};

const PREAMBLE = `
import wt from 'node:worker_threads';
import { syncBuiltinESMExports } from 'node:module';
const STAND_INS = ${JSON.stringify(STAND_INS)};
const workers = [];
const warnings = [];
process.on('warning', (w) => warnings.push(w.message));
const Real = wt.Worker;
wt.Worker = class extends Real {
  constructor(file, options) {
    if (globalThis.MODE === 'refuse') throw new Error('the test refuses to start a thread');
    const code = STAND_INS[globalThis.MODE];
    super(code ?? file, code ? { ...options, eval: true } : options);
    workers.push(this);
  }
};
syncBuiltinESMExports();
const { createRuntime, Runtime, SparseTensor, tensor } = await import('@sparse/runtime');
const { createWasmBackend } = await import('@sparse/kernels-as');
// 2000 x 100 entries: a reduction by row past the backend's PARALLEL_MIN_WORK, so it is cut between threads.
const rows = 2000, cols = 100, idx = [], vals = [];
for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) { idx.push([r, c]); vals.push((r * 7 + c) % 13); }
const st = new SparseTensor(idx, vals, [rows, cols], 'float64');
const expected = [];
for (let r = 0; r < rows; r++) { let s = 0; for (let c = 0; c < cols; c++) s += (r * 7 + c) % 13; expected.push(s); }
const correct = (rt) => JSON.stringify(Array.from(rt.sparse.reduceSum(st, { axis: [1] }).dataSync())) === JSON.stringify(expected);
const tick = () => new Promise((r) => setImmediate(r));
const report = async (o) => { await tick(); console.log(JSON.stringify({ ...o, warnings })); };
`;

/** Runs `body` after PREAMBLE in a child process under the watchdog: what it reported, and its stderr. */
async function child(body: string): Promise<{ out: Record<string, unknown> & { warnings: string[] }; stderr: string }> {
  const r = await new Promise<{ error: (Error & { killed?: boolean }) | null; stdout: string; stderr: string }>(
    (resolve) =>
      execFile(
        process.execPath,
        ['--input-type=module', '-e', PREAMBLE + body],
        { cwd: ROOT, encoding: 'utf8', timeout: WATCHDOG_MS },
        (error, stdout, stderr) => resolve({ error, stdout, stderr }),
      ),
  );
  expect(r.error?.killed, `the child hung (killed by the watchdog); stderr: ${r.stderr}`).not.toBe(true);
  expect(r.error, `the child failed; stderr: ${r.stderr}`).toBeNull();
  return { out: JSON.parse(r.stdout.trim().split('\n').at(-1)!), stderr: r.stderr };
}

/** The warning Node prints for a backend that fell back to one thread. */
const PRINTED = /\[SPARSE_WASM_THREADS_LOST\] Warning: sparse: the wasm backend .*; it runs on one thread/;

// Concurrent: the children mostly wait (on a worker, or for a timeout).
describe.concurrent('wasm threads that fail', () => {
  it('a worker killed between calls: the next call runs on one thread, correct, with one warning', async () => {
    const { out, stderr } = await child(`
      const rt = await createRuntime({ backend: 'wasm', threads: 2 });
      const before = rt.threads, first = correct(rt);
      await workers[0].terminate();
      await tick();
      const after = rt.threads;
      const t = performance.now();
      const next = correct(rt), later = correct(rt);
      await report({ before, first, after, next, later, ms: performance.now() - t });
    `);
    expect(out).toMatchObject({ before: 2, first: true, after: 1, next: true, later: true });
    expect(out.ms).toBeLessThan(5000);
    expect(out.warnings).toEqual([
      'sparse: the wasm backend lost its threads: wasm kernel thread 1 died (it exited with code 1); ' +
        'it runs on one thread',
    ]);
    expect(stderr).toMatch(PRINTED);
  });

  it('a worker that dies mid-call: that call fails within seconds, saying why; later calls run on one thread', async () => {
    const { out } = await child(`
      globalThis.MODE = 'dieOnCall';
      const rt = new Runtime(await createWasmBackend(undefined, { threads: 2, warmUp: false }));
      const before = rt.threads;
      const t = performance.now();
      let error;
      try { correct(rt); } catch (e) { error = e.constructor.name + ': ' + e.message; }
      const ms = performance.now() - t;
      await report({ before, error, ms, after: rt.threads, next: correct(rt), later: correct(rt) });
    `);
    expect(out).toMatchObject({ before: 2, after: 1, next: true, later: true });
    expect(out.error).toMatch(
      /^Error: wasm kernel thread 1 did not finish its part of sparse_reduce_sum\w* within 5000 ms: taken for dead; this call is lost, and the backend runs on one thread from now on$/,
    );
    expect(out.ms).toBeGreaterThanOrEqual(4900);
    expect(out.ms).toBeLessThan(15_000);
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings[0]).toMatch(/^sparse: the wasm backend lost its threads: wasm kernel thread 1 did not finish/);
  });

  it('a worker that dies in the backend warm-up: createRuntime runs on one thread, saying so', async () => {
    const { out } = await child(`
      globalThis.MODE = 'dieOnCall';
      const rt = await createRuntime({ backend: 'wasm', threads: 2 });
      await report({ threads: rt.threads, correct: correct(rt) });
    `);
    expect(out).toMatchObject({ threads: 1, correct: true });
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings[0]).toMatch(/^sparse: the wasm backend lost its threads: wasm kernel thread 1 did not finish/);
  });

  it('a worker that cannot start (throws, exits, or is refused): the runtime runs on one thread, saying so', async () => {
    const { out, stderr } = await child(`
      const runs = [];
      for (const mode of ['throw', 'exit', 'refuse']) {
        globalThis.MODE = mode;
        const rt = await createRuntime({ backend: 'wasm', threads: 2 });
        runs.push({ threads: rt.threads, correct: correct(rt) });
      }
      await report({ runs });
    `);
    expect(out.runs).toEqual(Array(3).fill({ threads: 1, correct: true }));
    const start = 'sparse: the wasm backend could not start its threads (a wasm kernel thread did not start: ';
    expect(out.warnings).toEqual([
      `${start}a thread that fails at start); it runs on one thread`,
      `${start}it exited with code 5); it runs on one thread`,
      `${start}the test refuses to start a thread); it runs on one thread`,
    ]);
    expect(stderr).toMatch(PRINTED);
  });

  it('a memory release that cannot make a threaded instance, then none: one thread, then the old memory kept', async () => {
    const { out } = await child(`
      const rt = await createRuntime({ backend: 'wasm', threads: 2 });
      // A 64 MiB result, made in wasm memory: the backend gives that memory back after the call, in the background.
      const big = () => rt.sparse.tensorDenseMatmul(
        new SparseTensor([[0, 0]], [1], [2 ** 24, 1], 'float32'),
        tensor(new Float32Array([2]), 'float32', [1, 1]),
      );
      const before = rt.threads;
      // The address space refuses a shared memory (as under ulimit -v): the release falls back to one thread.
      const RealMemory = WebAssembly.Memory;
      WebAssembly.Memory = function (d) {
        if (d.shared) throw new RangeError('WebAssembly.Memory(): could not allocate memory');
        return new RealMemory(d);
      };
      big();
      await rt.dispose(); // waits for the release the call started
      const fellBack = rt.threads, first = correct(rt);
      // Now no instance at all: the background release keeps the memory it has; an explicit one rejects.
      WebAssembly.instantiate = () => Promise.reject(new RangeError('WebAssembly.instantiate(): Out of memory'));
      big();
      await new Promise((r) => setTimeout(r, 50));
      let disposeError;
      try { await rt.dispose(); } catch (e) { disposeError = e.message; }
      big();
      await new Promise((r) => setTimeout(r, 50));
      await report({ before, fellBack, first, disposeError, kept: correct(rt) });
    `);
    expect(out).toMatchObject({ before: 2, fellBack: 1, first: true, kept: true });
    expect(out.disposeError).toBe(
      'the wasm backend could not make an instance of its kernels: WebAssembly.instantiate(): Out of memory',
    );
    expect(out.warnings).toEqual([
      'sparse: the wasm backend could not start its threads (WebAssembly.Memory(): could not allocate memory); ' +
        'it runs on one thread',
      'sparse: the wasm backend could not make an instance of its kernels: WebAssembly.instantiate(): ' +
        'Out of memory; it keeps its current memory',
    ]);
  });
});
