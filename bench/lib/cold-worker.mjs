// One fresh process of the cold-start section (sections/cold-start.mjs): loads the runtime, makes one backend,
// builds the data, then times each of the first `calls` calls of one op on it, one by one, as an app's first
// requests would run them. Prints {import_ms, create_ms, times} as JSON. Usage: node cold-worker.mjs '<json>'
// with {backend, kind: 'spmm' | an ops-section op, m, n, calls, dispose}.
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
if (job.kind === 'spmm') {
  const a = toSparse(randomCoo(job.m, job.m, 0.01, 1));
  const b = tensor(randomDense(job.m, job.n, 2), 'float32', [job.m, job.n]);
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
  call = () => rt.run(id, args);
}

const times = [];
for (let i = 0; i < job.calls; i++) {
  const t = performance.now();
  const out = call();
  times.push(performance.now() - t);
  if (job.dispose) for (const v of Object.values(out)) v.dispose?.();
}
console.log(JSON.stringify({ import_ms: imported - started, create_ms: created - imported, times }));
// tfjs is not loaded here, but the wasm backend's module would keep nothing alive either: exit at once.
process.exit(0);
