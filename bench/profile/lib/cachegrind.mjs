// Instruction and simulated cache-miss counts per call, from valgrind's cachegrind: deterministic where wall
// time on a shared machine is not. A program runs twice, with `lo` and `hi` calls of the work after the same
// start-up; the difference divided by (hi - lo) is one call, start-up, loading and warm-up cancelled out. The
// two runs go in parallel (the counts do not depend on timing).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The cache model: this machine's L1d as cachegrind's D1 and its L2 as cachegrind's LL. Cachegrind simulates
 * two levels; the L2 is the one these data sets outgrow first (the L3 here is hundreds of MB, shared), and an
 * L2 miss is what costs: L3 or DRAM latency. Read from sysfs; a geometry cachegrind cannot model (sets not a
 * power of two) falls back to a typical one.
 */
export function cacheModel() {
  const level = (lvl, type) => {
    for (let i = 0; i < 8; i++) {
      const d = `/sys/devices/system/cpu/cpu0/cache/index${i}`;
      try {
        const f = (x) => readFileSync(join(d, x), 'utf8').trim();
        if (Number(f('level')) !== lvl || !f('type').startsWith(type)) continue;
        const c = {
          size: Number(f('size').replace(/K$/, '')) * 1024,
          ways: Number(f('ways_of_associativity')),
          line: Number(f('coherency_line_size')),
        };
        if (Number.isInteger(Math.log2(c.size / (c.ways * c.line)))) return c;
      } catch {
        break;
      }
    }
    return undefined;
  };
  const D1 = level(1, 'Data') ?? { size: 48 * 1024, ways: 12, line: 64 };
  const LL = level(2, 'Unified') ?? { size: 2 * 1024 * 1024, ways: 16, line: 64 };
  return {
    D1,
    LL,
    text: `D1 = L1d ${D1.size / 1024} KB ${D1.ways}-way, LL = L2 ${LL.size / 2 ** 20} MB ${LL.ways}-way, ${LL.line} B lines`,
  };
}

const spec = (c) => `${c.size},${c.ways},${c.line}`;

/**
 * Where the counts fall, by the function cachegrind names. JIT code (our wasm kernels and optimized JS) has no
 * symbol: "???". glibc's memcpy/memmove are the copies into and out of wasm memory and typed-array slices;
 * memset the zeroing of new buffers. Note that valgrind counts a `rep movsb`/`rep stosb` (glibc's choice for
 * mid-sized copies) once per byte: read those instructions as bytes moved, not as work.
 */
function category(fn) {
  if (fn === '???') return 'jit';
  if (/^__(memcpy|memmove)/.test(fn)) return 'memcpy';
  if (/^__memset/.test(fn)) return 'memset';
  return 'other';
}

const EMPTY = () => ({ Ir: 0, D1: 0, LL: 0 });

/** One cachegrind run: {total, byCategory} of Ir (instructions), D1 and LL misses (reads + writes). */
export function cachegrind(cmd, args, work, model = cacheModel()) {
  const out = join(work, `cachegrind.${process.pid}.${Math.random().toString(36).slice(2)}.out`);
  const vg = [
    '--tool=cachegrind',
    '--cache-sim=yes',
    `--D1=${spec(model.D1)}`,
    `--LL=${spec(model.LL)}`,
    `--cachegrind-out-file=${out}`,
    cmd,
    ...args,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', vg, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        if (code !== 0)
          throw new Error(`valgrind ${cmd} exited ${code}: ${err.trim().split('\n').slice(-3).join(' / ')}`);
        resolve(parse(readFileSync(out, 'utf8')));
      } catch (e) {
        reject(e);
      } finally {
        rmSync(out, { force: true });
      }
    });
  });
}

function parse(text) {
  const events = text
    .match(/^events: (.*)$/m)[1]
    .trim()
    .split(/\s+/);
  const at = (e) => events.indexOf(e);
  const [ir, d1r, d1w, llr, llw] = ['Ir', 'D1mr', 'D1mw', 'DLmr', 'DLmw'].map(at);
  const byCategory = { jit: EMPTY(), memcpy: EMPTY(), memset: EMPTY(), other: EMPTY() };
  let c = byCategory.other;
  for (const line of text.split('\n')) {
    if (line.startsWith('fn=')) c = byCategory[category(line.slice(3))];
    else if (line.charCodeAt(0) >= 48 && line.charCodeAt(0) <= 57) {
      const v = line.split(' ');
      // v[0] is the line number; the counts follow in `events` order, trailing zeros omitted.
      const n = (i) => Number(v[i + 1] ?? 0);
      c.Ir += n(ir);
      c.D1 += n(d1r) + n(d1w);
      c.LL += n(llr) + n(llw);
    }
  }
  const total = EMPTY();
  for (const x of Object.values(byCategory)) for (const k of Object.keys(total)) total[k] += x[k];
  return { total, byCategory };
}

/** One call's counts: `argsFor(calls)` gives the arguments for a number of calls; runs lo and hi, subtracts. */
export async function perCall(cmd, argsFor, work, { lo = 1, hi = 2 } = {}) {
  const [a, b] = await Promise.all([cachegrind(cmd, argsFor(lo), work), cachegrind(cmd, argsFor(hi), work)]);
  const diff = (x, y) => Object.fromEntries(Object.keys(x).map((k) => [k, (y[k] - x[k]) / (hi - lo)]));
  return {
    total: diff(a.total, b.total),
    byCategory: Object.fromEntries(Object.keys(a.byCategory).map((k) => [k, diff(a.byCategory[k], b.byCategory[k])])),
  };
}
