// The native peers, run as subprocesses on the files the harness wrote: scipy/numpy through the machine's
// python3 (bench/peers/numpy_peer.py) and a plain C++ CSR loop built with g++ -O3 -march=native at bench time
// (bench/peers/spmm.cpp). Each times only its own work and prints JSON. A peer that cannot run (no python3, no
// numpy or scipy, no g++) is recorded as unavailable with the reason; the run goes on without it.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PEERS = join(dirname(fileURLToPath(import.meta.url)), '..', 'peers');

/**
 * numpy's BLAS runs single-threaded, as every other implementation here does (our kernels, TF.js cpu and wasm
 * without threads, the C++ loop): a like-for-like race, and one that a busy machine cannot skew (a threaded
 * OpenBLAS sgemm waiting for a descheduled worker turns 0.4 ms into 8 ms). Set OPENBLAS_NUM_THREADS to override.
 */
const BLAS_THREADS = process.env.OPENBLAS_NUM_THREADS ?? '1';
const PY_ENV = {
  ...process.env,
  OPENBLAS_NUM_THREADS: BLAS_THREADS,
  OMP_NUM_THREADS: process.env.OMP_NUM_THREADS ?? BLAS_THREADS,
  MKL_NUM_THREADS: process.env.MKL_NUM_THREADS ?? BLAS_THREADS,
};
const firstLine = (e) =>
  String(e?.stderr?.toString?.().trim() || e?.message || e)
    .split('\n')
    .filter(Boolean)
    .pop();

export class Peers {
  /** @param work the run's temp dir; @param status where availability is recorded (results.peers). */
  constructor(work, status) {
    this.work = work;
    this.status = status;
    this.jobs = 0;
    this.native = undefined;
  }

  /**
   * Runs the python peer on a job (a list of tasks, see numpy_peer.py). Returns its {tasks, versions} or
   * undefined when python3, numpy or the peer itself fails: then `status.python` says why.
   */
  python(tasks) {
    if (this.status.python?.available === false) return undefined;
    const job = join(this.work, `job-${this.jobs++}.json`);
    writeFileSync(job, JSON.stringify({ tasks }));
    try {
      const out = JSON.parse(
        execFileSync('python3', [join(PEERS, 'numpy_peer.py'), job], {
          encoding: 'utf8',
          maxBuffer: 1 << 28,
          timeout: 3_600_000,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: PY_ENV,
        }),
      );
      this.status.python = {
        available: true,
        versions: out.versions,
        cpu_count: out.cpu_count,
        blas_threads_env: out.blas_threads_env,
      };
      for (const [name, r] of Object.entries(out.tasks)) if (r.error) console.error(`  ${name}: ${r.error}`);
      return out;
    } catch (e) {
      this.status.python = { available: false, reason: `python3 peer failed: ${firstLine(e)}` };
      console.error(`peer python3 unavailable: ${this.status.python.reason}`);
      return undefined;
    }
  }

  /** Builds the C++ loop once (g++ -O3 -march=native); false, with the reason in `status.native`, if it cannot. */
  buildNative() {
    if (this.native !== undefined) return Boolean(this.native);
    const exe = join(this.work, 'spmm-native');
    try {
      execFileSync('g++', ['-O3', '-march=native', '-o', exe, join(PEERS, 'spmm.cpp')], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const version = execFileSync('g++', ['-dumpfullversion'], { encoding: 'utf8' }).trim();
      this.native = exe;
      this.status.native = { available: true, compiler: `g++ ${version}`, flags: '-O3 -march=native' };
    } catch (e) {
      this.native = null;
      this.status.native = { available: false, reason: `g++ build failed: ${firstLine(e)}` };
      console.error(`native peer unavailable: ${this.status.native.reason}`);
    }
    return Boolean(this.native);
  }

  /** The C++ CSR × dense loop on the data in `dir`: {median_ms, min_ms, max_ms, samples, checksum} or {error}. */
  spmm(dir, m, k, n, nnz, budget) {
    if (!this.buildNative()) return undefined;
    try {
      const out = execFileSync(this.native, [dir, m, k, n, nnz, budget.iterations, budget.time].map(String), {
        encoding: 'utf8',
        timeout: 3_600_000,
      });
      return { ...JSON.parse(out), impl: 'C++ CSR loop, g++ -O3 -march=native' };
    } catch (e) {
      console.error(`  native spmm ${m}x${k}x${n}: ${firstLine(e)}`);
      return { error: firstLine(e) };
    }
  }
}

/** A python task's budget from a tinybench budget: the same minimum iterations and time, the same warm-up count. */
export function pyBudget(b) {
  return { repeats: b.iterations, min_ms: b.time, warmup: b.warmupIterations };
}
