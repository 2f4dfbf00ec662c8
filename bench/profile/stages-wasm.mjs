// The wasm SpMM call cut into its stages, each callable alone on the headline data, so the race (race.mjs) can
// time them in turns with the whole call and the peers. The stages follow what the runtime and the kernel do
// (packages/runtime/src/validate-sparse.ts, packages/kernels-as/src/kernels/sparse_tensor_dense_matmul.ts):
//   index check   the runtime's fast check: indices copied into wasm (f64) + the indices_valid export; the kernel
//                 then reuses that copy
//   runs pass     spmm_runs: B-row offsets and each row's runs, cut by slabs of B's rows (when B outgrows the
//                 cache), in one pass over entries in row order (the headline's; other orders are sorted first
//                 by spmm_csr_<dtype>, which these stages leave out)
//   copy in       values and B into wasm memory
//   multiply      spmm_<dtype>: the kernel proper
//   copy out      the [m × n] result sliced out of wasm memory into a new typed array
// Each stage gets its own module instance with its inputs already in place, so one stage never disturbs
// another's memory. An export that no longer exists (a renamed kernel) drops its stage with a note.
import { kernels as jsKernels } from '@sparse/kernels-js';
import { compileKernels, instantiateKernels } from '../../packages/kernels-as/dist/wasm-module.js';
import { WasmContext } from '../../packages/kernels-as/dist/wasm-context.js';
import { slabs, sparseTensorDenseMatmul } from '../../packages/kernels-as/dist/kernels/sparse_tensor_dense_matmul.js';

const DTYPE = 'float32';
const SIZE = 4;

async function context() {
  return new WasmContext(await instantiateKernels(await compileKernels()));
}

/** [{name, what, fn}] for the wasm stages on kernel args `args`, plus `notes` for stages that could not be set up. */
export async function wasmStages(args) {
  const { indices, values, shape } = args.sp_a;
  const { data: bData } = args.b;
  const [m] = shape;
  const n = args.b.shape[1];
  const nnz = values.length;
  const stages = [];
  const notes = [];
  const need = (ctx, ...names) => {
    const missing = names.filter((x) => !ctx.has(x));
    if (missing.length) notes.push(`wasm export(s) ${missing.join(', ')} not found: their stage is left out`);
    return missing.length === 0;
  };

  // The whole kernel, as the backend runs it after the runtime's checks.
  const whole = sparseTensorDenseMatmul(await context(), jsKernels.sparse_tensor_dense_matmul);
  stages.push({ name: 'kernel (all stages)', what: 'the backend kernel on checked arguments', fn: () => whole(args) });

  const check = await context();
  stages.push({
    name: 'index check',
    what: 'copy indices in (f64) + indices_valid',
    fn: () => check.indicesValid(args.sp_a),
  });
  const only = await context();
  if (need(only, 'indices_valid')) {
    only.heap.reset();
    const p = only.heap.putValues('float64', indices);
    const dims = only.heap.putValues('float64', Float64Array.from(shape));
    stages.push({
      name: '  of which indices_valid',
      what: 'the export alone, indices already in',
      fn: () => only.exports.indices_valid(p, indices.length, shape.length, dims),
    });
  }

  const copy = await context();
  stages.push({
    name: 'copy in',
    what: "values, B into wasm memory (the indices are the index check's copy)",
    fn: () => {
      copy.heap.reset();
      copy.heap.putValues(DTYPE, values);
      copy.heap.putValues(DTYPE, bData);
    },
  });

  // The kernel's memory layout (indices, runs, B-row offsets, values, B, result): the same addresses and alignment.
  const k = await context();
  if (need(k, 'spmm_runs', `spmm_${DTYPE}`)) {
    const { heap } = k;
    heap.reset();
    const idx = k.putIndices(indices);
    const kRows = args.b.shape[0];
    const tiles = slabs(kRows * n * SIZE, nnz, m);
    const stride = tiles > 1 ? m * 4 : 4;
    const ptrs = heap.alloc(tiles > 1 ? (tiles + 1) * m * 4 : (m + 1) * 4);
    const colOff = heap.alloc(nnz * 4);
    const runs = [idx, false, nnz, m, n * SIZE, Math.ceil(kRows / tiles) * n * SIZE, tiles, ptrs, stride, colOff];
    const slabText = `${tiles} slab${tiles > 1 ? 's' : ''} of B's rows`;
    if (k.exports.spmm_runs(...runs)) {
      const vals = heap.putValues(DTYPE, values);
      const d = heap.putValues(DTYPE, bData);
      const out = heap.alloc(m * n * SIZE);
      stages.push({ name: 'runs pass', what: `spmm_runs (${slabText})`, fn: () => k.exports.spmm_runs(...runs) });
      stages.push({
        name: 'multiply',
        what: `spmm_${DTYPE} (the kernel proper, ${slabText})`,
        fn: () => k.exports[`spmm_${DTYPE}`](ptrs, stride, tiles, colOff, vals, m, d, n, out),
      });
      stages.push({
        name: 'copy out',
        what: 'result sliced out of wasm memory',
        fn: () => heap.readValues(DTYPE, out, m * n),
      });
    } else
      notes.push(
        `the entries are out of row order, so the kernel sorts them first (spmm_csr_${DTYPE}), which these stages do not model: runs pass, multiply and copy out are left out`,
      );
  }
  return { stages, notes };
}
