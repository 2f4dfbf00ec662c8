// Runs every spec example of every op with its dense shapes made huge, on js and wasm, under a small byte budget,
// and prints one JSON line per call: how it ended. Run in a child process that its parent watches for memory.
import { readFileSync } from 'node:fs';
import { createRuntime, getOpInfo } from '@sparse/runtime';
import { isSparseForm } from '@sparse/case-format';
import { toRuntimeArgs } from '../../dist/index.js';

// Each factor in turn: 1e4 keeps dense outputs under the element cap (the byte budget must refuse them), 1e6
// passes it (refused as too many elements) and makes fill_empty_rows's rows and the like enormous.
const FACTORS = (process.argv[2] ?? '1e4,1e6').split(',').map(Number);
const MAX_BYTES = Number(process.argv[3] ?? 2 ** 28);
const { cases } = JSON.parse(readFileSync(new URL('../../generated/cases.json', import.meta.url), 'utf8'));

/**
 * A case's arguments with every dense shape made huge but valid: each dim of a SparseTensor's dense shape, and of a
 * `shape` argument, multiplied by `factor` (the indices stay in bounds).
 */
function scaledArgs(c, factor) {
  const types = new Map(getOpInfo(c.op).args.map((a) => [a.name, a.type]));
  return Object.fromEntries(
    Object.entries(c.args).map(([name, v]) => [name, scaled(v, types.get(name) === 'shape', factor)]),
  );
}

function scaled(value, isShape, factor) {
  const times = (dims) => dims.map((d) => (typeof d === 'number' ? d * factor : d));
  if (isShape && Array.isArray(value)) return times(value);
  if (isSparseForm(value))
    return { ...value, sparse: { ...value.sparse, dense_shape: times(value.sparse.dense_shape) } };
  if (Array.isArray(value)) return value.map((v) => scaled(v, false, factor));
  return value;
}

for (const backend of ['js', 'wasm']) {
  const rt = await createRuntime({ backend, maxBytes: MAX_BYTES });
  for (const factor of FACTORS)
    for (const c of cases) {
      if (c.expect_error) continue;
      let outcome;
      try {
        rt.run(c.op, toRuntimeArgs(scaledArgs(c, factor)));
        outcome = 'result';
      } catch (e) {
        outcome = e instanceof Error ? `${e.name}: ${e.message.slice(0, 200)}` : `thrown ${String(e)}`;
      }
      process.stdout.write(`${JSON.stringify({ backend, factor, op: c.op, name: c.name, outcome })}\n`);
    }
}
process.stdout.write(`${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
