// The program the profilers watch: one op of our runtime on one backend, called on a data dir, WARMUP untimed
// calls then CALLS timed ones (or as many as fit in "Ns" seconds). Under cachegrind the parent runs it twice with
// different CALLS and divides the difference (start-up, loading and warm-up cancel out); under --cpu-prof the
// parent keeps only the samples below profiledLoop. Prints {calls, median_ms, min_ms}.
// Usage: node op-loop.mjs BACKEND OP META_JSON CALLS|Ns [WARMUP]
import { createRuntime } from '@sparse/runtime';
import { OP_ID, opArgs } from '../lib/load.mjs';

const [backend, op, metaJson, calls, warmup = '2'] = process.argv.slice(2);
const rt = await createRuntime({ backend });
const args = opArgs(op, JSON.parse(metaJson));
const opId = OP_ID[op];

function profiledLoop(n, seconds, times) {
  const end = performance.now() + seconds * 1000;
  for (let i = 0; i < n || performance.now() < end; i++) {
    const t = performance.now();
    rt.run(opId, args);
    times?.push(performance.now() - t);
  }
}

profiledLoop(Number(warmup), 0);
const times = [];
if (calls.endsWith('s')) profiledLoop(1, Number(calls.slice(0, -1)), times);
else profiledLoop(Number(calls), 0, times);
times.sort((a, b) => a - b);
process.stdout.write(
  JSON.stringify({ calls: times.length, median_ms: times[times.length >> 1], min_ms: times[0] }) + '\n',
);
