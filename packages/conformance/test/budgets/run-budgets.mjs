// Runs every op on hostile-but-valid inputs under a small byte budget, on one backend, and prints one JSON line per
// call: how it ended, in how many ms, and how far the process's resident memory rose above where it was at the
// call's start (its own peak). The inputs are each op's spec examples with every dense shape of a SparseTensor, the
// columns of every CsrMatrix, every `shape` argument and (in a second variant) every whole-number argument
// (num_segments, num_split, vocab_size, dims...) times each factor: few entries, enormous outputs or scratch.
// argv: backend, maxBytes, factors (comma-separated), examples per op, and optionally the ops to run
// (comma-separated). Run with --expose-gc in a watched child.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRuntime, getOpInfo, listOps } from '@sparse/runtime';
import { isSparseForm } from '@sparse/case-format';
import { toRuntimeArgs } from '../../dist/index.js';

const [backend, maxBytes, factors, perOp] = [
  process.argv[2],
  Number(process.argv[3]),
  process.argv[4].split(',').map(Number),
  Number(process.argv[5]),
];
const { cases } = JSON.parse(readFileSync(new URL('../../generated/cases.json', import.meta.url), 'utf8'));

function scaled(value, isShape, factor) {
  const times = (dims) => dims.map((d) => (typeof d === 'number' ? d * factor : d));
  if (isShape && Array.isArray(value)) return times(value);
  if (isSparseForm(value))
    return { ...value, sparse: { ...value.sparse, dense_shape: times(value.sparse.dense_shape) } };
  // A CSR matrix's columns (its rows are fixed by its row pointers).
  if (value !== null && typeof value === 'object' && 'csr' in value) {
    const shape = value.csr.dense_shape;
    return { ...value, csr: { ...value.csr, dense_shape: [...shape.slice(0, -1), shape.at(-1) * factor] } };
  }
  if (Array.isArray(value)) return value.map((v) => scaled(v, false, factor));
  return value;
}

/** A case's arguments with its dense shapes (and, with `ints`, its whole-number arguments) times `factor`. */
function hostile(c, factor, ints) {
  const types = new Map(getOpInfo(c.op).args.map((a) => [a.name, a.type]));
  return Object.fromEntries(
    Object.entries(c.args).map(([name, v]) => {
      const type = types.get(name);
      if (type === 'int' && typeof v === 'number') return [name, ints ? v * factor : v];
      return [name, scaled(v, type === 'shape', factor)];
    }),
  );
}

// The peak resident memory since the last reset (Linux: VmHWM, reset by writing 5 to clear_refs), so that each call's
// own peak is seen, not only the process's.
const peak = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
const resetPeak = () => writeFileSync('/proc/self/clear_refs', '5');
const current = () => process.memoryUsage().rss;
const rt = await createRuntime({ backend, maxBytes });
// Warm up (the wasm module, the first call of each kind) before the baseline.
for (const c of cases.slice(0, 50))
  if (!c.expect_error)
    try {
      rt.run(c.op, toRuntimeArgs(c.args));
    } catch {
      // An example on a backend that refuses it warms up all the same.
    }
globalThis.gc();
process.stdout.write(`${JSON.stringify({ baseline: current() })}\n`);
let highest = 0;
let calls = 0;

const only = process.argv[6]?.split(',');
for (const op of listOps().filter((o) => !only || only.includes(o))) {
  const mine = cases.filter((c) => c.op === op && !c.expect_error).slice(0, perOp);
  for (const c of mine)
    for (const factor of factors)
      for (const ints of [false, true]) {
        if (ints && !getOpInfo(op).args.some((a) => a.type === 'int' && typeof c.args[a.name] === 'number')) continue;
        let args;
        try {
          args = toRuntimeArgs(hostile(c, factor, ints));
        } catch (e) {
          // Not a valid input once scaled (a dim count past int64): nothing to run.
          process.stdout.write(`${JSON.stringify({ op, name: c.name, factor, ints, input: e.name })}\n`);
          continue;
        }
        if (++calls % 64 === 0) globalThis.gc();
        const before = current();
        resetPeak();
        const t0 = performance.now();
        let outcome;
        try {
          rt.run(op, args);
          outcome = 'result';
        } catch (e) {
          outcome = e instanceof Error ? `${e.name}: ${e.message.slice(0, 240)}` : `thrown ${String(e)}`;
        }
        const ms = performance.now() - t0;
        const top = peak();
        highest = Math.max(highest, top);
        const line = { op, name: c.name, factor, ints, outcome, ms: Math.round(ms), rose: top - before, peak: top };
        process.stdout.write(`${JSON.stringify(line)}\n`);
      }
}
process.stdout.write(`${JSON.stringify({ maxRssBytes: highest })}\n`);
