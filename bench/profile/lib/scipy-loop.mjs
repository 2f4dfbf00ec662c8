// The persistent scipy peer (peers/scipy_loop.py) from JS: load once, then timed turns on demand, so scipy's
// turns can alternate with ours and the native loop's in the same minutes of a shared machine.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { HERE } from './tools.mjs';

const THREADS = process.env.OPENBLAS_NUM_THREADS ?? '1';

/** Starts the peer on a data dir; resolves to {versions, turn(calls) → {median_ms, min_ms, checksum}, close()}. */
export function startScipy(meta) {
  const child = spawn('python3', [join(HERE, 'peers', 'scipy_loop.py'), meta.dir, meta.m, meta.k, meta.n].map(String), {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, OPENBLAS_NUM_THREADS: THREADS, OMP_NUM_THREADS: THREADS, MKL_NUM_THREADS: THREADS },
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`scipy peer ended: ${err.trim().split('\n').pop()}`);
    return JSON.parse(value);
  };
  return next().then(({ ready }) => ({
    versions: ready,
    async turn(calls) {
      child.stdin.write(`${calls}\n`);
      return next();
    },
    close: () => child.stdin.end(),
  }));
}
