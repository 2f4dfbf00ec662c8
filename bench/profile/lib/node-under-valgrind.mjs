// How node runs under cachegrind. --predictable: one thread, no time-driven GC or compile decisions, so two
// runs that differ only in the number of calls differ only by those calls (without it the per-call difference
// wandered by ±30%). --no-liftoff: wasm compiled by the optimizing tier up front, the code the bench's hot loop
// runs after tier-up. Neither changes the speed of a call outside valgrind (checked: same medians).
import { join } from 'node:path';
import { HERE } from './tools.mjs';

const V8_FLAGS = ['--predictable', '--no-liftoff'];

/** argsFor(calls) for perCall: a worker of workers/ with its arguments, the call count and WARMUP in place. */
export function nodeWorker(worker, args, warmup = 2) {
  return (calls) => [...V8_FLAGS, join(HERE, 'workers', worker), ...args, String(calls), String(warmup)];
}
