// One fresh process of the cold-start section (sections/cold-start.mjs): loads the runtime, makes one backend,
// builds the data, then times each of the first `calls` calls of one op on it, one by one, as an app's first
// requests would run them. Prints {import_ms, create_ms, times} as JSON. Usage: node cold-worker.mjs '<json>'
// with {backend, kind: 'spmm' | an ops-section op, m, n, calls, dispose, prepare}: with `prepare`, the operands
// are readied by `rt.prepare` once built (timed: prepare_ms), as a server would at load.
const started = performance.now();
const { createRuntime, tensor } = await import('@sparse/runtime');
const { randomCoo, randomDense, shuffled, toSparse } = await import('./data.mjs');
const imported = performance.now();

const job = JSON.parse(process.argv[2]);
// `wasm-2t`, as the bench names the wasm backend on two threads.
const threaded = /^wasm-(\d+)t$/.exec(job.backend);
const rt = await createRuntime(threaded ? { backend: 'wasm', threads: Number(threaded[1]) } : { backend: job.backend });
const created = performance.now();

let call;
let operands;
if (job.kind === 'spmm') {
  const a = toSparse(randomCoo(job.m, job.m, 0.01, 1));
  const b = tensor(randomDense(job.m, job.n, 2), 'float32', [job.m, job.n]);
  operands = [a, b];
  call = () => rt.run('sparse_tensor_dense_matmul', { sp_a: a, b });
} else {
  // The ops section's data and calls (sections/ops.mjs), with its seeds.
  const { rows, cols, nnz } = job;
  const c1 = randomCoo(rows, cols, nnz / (rows * cols), 21);
  const a = toSparse(c1);
  const b = toSparse(randomCoo(rows, cols, nnz / (rows * cols), 22));
  const calls = {
    reorder: ['sparse_reorder', { sp_input: toSparse(shuffled(c1, 5)) }],
    to_dense: ['sparse_tensor_to_dense', { sp_input: a }],
    add: ['sparse_add', { a, b }],
    reduce_sum: ['sparse_reduce_sum', { sp_input: a, axis: 1 }],
    concat: ['sparse_concat', { axis: 1, sp_inputs: [a, b] }],
    transpose: ['sparse_transpose', { sp_input: a }],
  };
  const [id, args] = calls[job.kind];
  operands = Object.values(args)
    .flat()
    .filter((x) => typeof x === 'object');
  call = () => rt.run(id, args);
}

// Counted from sizes: reading `values` or `data` would copy the result (64 MB for to_dense) between the timed calls.
const BYTES = { float32: 4, float64: 8, int32: 4, int64: 8, bool: 1 };
function resultBytes(out) {
  let bytes = 0;
  for (const v of Object.values(out)) {
    const per = BYTES[v?.dtype] ?? 0;
    if (v?.nnz !== undefined)
      bytes += v.nnz * (8 * v.rank + per); // indices as float64, and the values
    else if (v?.size !== undefined) bytes += v.size * per;
  }
  return bytes;
}

const beforePrepare = performance.now();
if (job.prepare) rt.prepare(...operands);
const prepareMs = performance.now() - beforePrepare;

const times = [];
let outBytes = 0;
for (let i = 0; i < job.calls; i++) {
  const t = performance.now();
  const out = call();
  times.push(performance.now() - t);
  if (i === 0) outBytes = resultBytes(out);
  if (job.dispose) for (const v of Object.values(out)) v.dispose?.();
}
// The floor of a first call: writing its result's bytes into memory this process never touched (each new page
// costs the OS a fault and zeroing), timed after the calls.
const beforeTouch = performance.now();
new Uint8Array(outBytes).fill(1);
const freshPagesMs = performance.now() - beforeTouch;
console.log(
  JSON.stringify({
    import_ms: imported - started,
    create_ms: created - imported,
    prepare_ms: prepareMs,
    out_bytes: outBytes,
    fresh_pages_ms: freshPagesMs,
    times,
  }),
);
// tfjs is not loaded here, but the wasm backend's module would keep nothing alive either: exit at once.
process.exit(0);
