// node bench/crosses.mjs: the feature crosses on the js backend (wasm and gpu run the same JS kernels): sparse_cross
// and sparse_cross_hashed on a batch of 100,000 rows of three string features (1 to 3 per row, sparse) and one int64
// (dense), 8 crosses a row on average; and Fingerprint64 alone. Medians of tinybench runs; no peer computes feature
// crosses in JavaScript, and TensorFlow's Python is not on the bench machine.
import { createRuntime, SparseTensor, tensor } from '@sparse/runtime';
import { fingerprint64Into } from '@sparse/kernels-js/internals';
import { measure } from './lib/measure.mjs';

const BATCH = 100_000;
let seed = 1;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

/** A [BATCH, 3] SparseTensor of 1 to 3 string features a row, in canonical order. */
function stringColumn(name) {
  const indices = [];
  const values = [];
  for (let r = 0; r < BATCH; r++) {
    const n = 1 + Math.floor(random() * 3);
    for (let j = 0; j < n; j++) {
      indices.push([r, j]);
      values.push(`${name}-${Math.floor(random() * 10_000)}`);
    }
  }
  return new SparseTensor(indices, values, [BATCH, 3], 'string');
}

const inputs = [
  stringColumn('country'),
  stringColumn('device'),
  stringColumn('query'),
  tensor(
    BigInt64Array.from({ length: BATCH }, (_, i) => BigInt(i % 97)),
    'int64',
    [BATCH, 1],
  ),
];
const rt = await createRuntime({ backend: 'js' });
const crosses = rt.sparse.crossHashed(inputs).values.length;
const strings = inputs.slice(0, 3).flatMap((t) => t.values);
const encoder = new TextEncoder();
const bytes = strings.map((s) => encoder.encode(s));
const out = new Uint32Array(2);

const budget = { time: 2000, iterations: 5, warmupTime: 200, warmupIterations: 1 };
const r = await measure(
  [
    ['sparse_cross', () => rt.sparse.cross(inputs)],
    ['sparse_cross_hashed', () => rt.sparse.crossHashed(inputs, { numBuckets: 1000 })],
    ['fingerprint64', () => bytes.forEach((b) => fingerprint64Into(out, 0, b))],
  ],
  budget,
);
const ms = (name) => r[name].median_ms?.toFixed(1) ?? r[name].error;
console.log(`${BATCH} rows, ${crosses} crosses (js backend, ${process.version}):`);
console.log(`  sparse_cross         ${ms('sparse_cross')} ms`);
console.log(`  sparse_cross_hashed  ${ms('sparse_cross_hashed')} ms`);
console.log(`  fingerprint64 of ${strings.length} strings of ~12 bytes: ${ms('fingerprint64')} ms`);
