// Sends every op hostile request bodies, as an HTTP API would pass on parsed JSON: each tensor argument of its
// first example replaced by a body that lies (a length it does not have, a huge or negative dim, nesting 10^5 deep,
// counts that disagree), or by arrays of holes a JS caller can pass, on js and wasm; prints one JSON line per call:
// how it ended. Run in a watched child.
import { readFileSync } from 'node:fs';
import { createRuntime, getOpInfo } from '@sparse/runtime';
import { isSparseForm } from '@sparse/case-format';
import { toRuntimeArgs } from '../../dist/index.js';

const { cases } = JSON.parse(readFileSync(new URL('../../generated/cases.json', import.meta.url), 'utf8'));
const TENSOR_TYPES = new Set([
  'sparse',
  'sparse_or_null',
  'dense',
  'scalar',
  'sparse_or_dense',
  'sparse_list',
  'sparse_or_sparse_list',
]);

let deep = 0;
for (let i = 0; i < 1e5; i++) deep = [deep];

/** Lying bodies in the place of a tensor argument: plain objects, as JSON.parse gives them. */
function hostileBodies(value) {
  const sparse = isSparseForm(value) ? value.sparse : { indices: [[0]], values: [1], dense_shape: [2] };
  return {
    'values claim a length': { ...sparse, values: { length: 1e9 } },
    'indices claim a length': { ...sparse, indices: { length: 1e9 } },
    'negative length': { ...sparse, values: { length: -1 } },
    'dim past int64': { ...sparse, dense_shape: [1e300, 2] },
    'dims past the element count': { ...sparse, dense_shape: Array(64).fill(2 ** 20) },
    'nesting 10^5 deep': { ...sparse, values: deep },
    'more values than indices': { ...sparse, values: new Array(1e6).fill(1) },
    'dense claims a length': { length: 1e9 },
    'dense nested 10^5 deep': deep,
    // What a JS caller can pass (JSON has no holes): arrays of holes, whose values must never be copied out one by
    // one into a flat array (V8 ends the process when one grows past ~1.3e8 entries).
    'values a holey 10^9 array': { ...sparse, values: new Array(1e9) },
    'dense a holey 10^9 array': new Array(1e9),
    'dense two holey rows of 10^8': [new Array(1e8), new Array(1e8)],
    'dense past the element count': new Array(2 ** 31),
  };
}

const firstCase = new Map();
for (const c of cases) if (!c.expect_error && !firstCase.has(c.op)) firstCase.set(c.op, c);

for (const backend of ['js', 'wasm']) {
  const rt = await createRuntime({ backend, maxBytes: 2 ** 28 });
  for (const [op, c] of firstCase) {
    const types = new Map(getOpInfo(op).args.map((a) => [a.name, a.type]));
    for (const [arg, value] of Object.entries(c.args)) {
      if (!TENSOR_TYPES.has(types.get(arg))) continue;
      for (const [lie, body] of Object.entries(hostileBodies(value))) {
        let outcome;
        try {
          rt.run(op, { ...toRuntimeArgs(c.args), [arg]: body });
          outcome = 'result';
        } catch (e) {
          outcome = e instanceof Error ? `${e.name}: ${e.message.slice(0, 200)}` : `thrown ${String(e)}`;
        }
        process.stdout.write(`${JSON.stringify({ backend, op, arg, lie, outcome })}\n`);
      }
    }
  }
}
process.stdout.write(`${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
