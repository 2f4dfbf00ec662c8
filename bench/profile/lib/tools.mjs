// The outside tools the profile needs, found once: valgrind (cachegrind), g++ (the C++ CSR loop), python3 with
// scipy. A part whose tool is missing is skipped with the reason in the report; the rest still runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HERE = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = join(HERE, '..', '..');
const PEER_CPP = join(ROOT, 'bench', 'peers', 'spmm.cpp');
export const WASM_FILE = join(ROOT, 'packages', 'kernels-as', 'build', 'kernels.wasm');

/** Runs a command; returns {ok, stdout, stderr, status}, never throws. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  const missing = r.error?.code === 'ENOENT' ? `${cmd}: not found on PATH` : undefined;
  return {
    ok: r.status === 0,
    stdout: r.stdout ?? '',
    stderr: missing ?? r.stderr ?? String(r.error ?? ''),
    status: r.status,
  };
}

const firstLine = (s) => String(s).trim().split('\n').filter(Boolean).pop() ?? '';

/** {valgrind, gxx, python}: each {ok, version} or {ok: false, reason}. */
export function findTools() {
  const probe = (cmd, args, pick = (o) => firstLine(o)) => {
    const r = run(cmd, args);
    return r.ok
      ? { ok: true, version: pick(r.stdout || r.stderr) }
      : {
          ok: false,
          reason: firstLine(r.stderr).startsWith(`${cmd}:`)
            ? firstLine(r.stderr)
            : `${cmd} not usable: ${firstLine(r.stderr) || `exit ${r.status}`}`,
        };
  };
  return {
    valgrind: probe('valgrind', ['--version']),
    gxx: probe('g++', ['-dumpfullversion']),
    python: probe('python3', [
      '-c',
      'import scipy, numpy, sys; print("python", sys.version.split()[0], "numpy", numpy.__version__, "scipy", scipy.__version__)',
    ]),
  };
}

/**
 * Builds bench/peers/spmm.cpp as the bench does (g++ -O3 -march=native). `forValgrind` adds -mno-avx512f:
 * valgrind decodes AVX2 but not AVX-512 (SIGILL), so the profiled binary is the same loop in 256-bit vectors.
 */
export function buildNative(out, forValgrind = false) {
  const flags = ['-O3', '-march=native', ...(forValgrind ? ['-mno-avx512f'] : [])];
  const r = run('g++', [...flags, '-o', out, PEER_CPP]);
  if (!r.ok) throw new Error(`g++ ${flags.join(' ')} failed: ${firstLine(r.stderr)}`);
  return { exe: out, flags: flags.join(' ') };
}

/** The C++ loop on a data dir: {median_ms, min_ms, max_ms, samples, checksum}. */
export function runNative(exe, dir, m, k, n, nnz, repeats, minMs = 0) {
  const out = execFileSync(exe, [dir, m, k, n, nnz, repeats, minMs].map(String), { encoding: 'utf8' });
  return JSON.parse(out);
}
