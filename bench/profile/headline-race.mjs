// Questions 2 and 3, by the clock: the headline SpMM (A 4096×4096 at 1%, B 4096×128 float32) on each backend,
// whole and by stage, in turns with scipy and the native C++ loop on the same data (race.mjs).
import { join } from 'node:path';
import { createRuntime } from '@sparse/runtime';
import { kernels as jsKernels } from '@sparse/kernels-js';
import { OP_ID, kernelArgs, opArgs } from './lib/load.mjs';
import { startScipy } from './lib/scipy-loop.mjs';
import { buildNative, runNative } from './lib/tools.mjs';
import { agrees, race } from './race.mjs';
import { wasmStages } from './stages-wasm.mjs';

/** {results, ratios, checks, notes, native, scipy}: medians over rounds, ratios per round. */
export async function headlineRace(meta, work, tools, { rounds, log }) {
  const { m, k, n, nnz, dir } = meta;
  const notes = [];
  const runArgs = opArgs('spmm', meta);
  const kargs = kernelArgs(runArgs);
  const contenders = [];
  const outputs = {};
  for (const backend of ['wasm', 'js']) {
    let rt;
    try {
      rt = await createRuntime({ backend });
    } catch (e) {
      notes.push(`${backend} backend unavailable: ${String(e.message).split('\n')[0]}`);
      continue;
    }
    outputs[backend] = rt.run(OP_ID.spmm, runArgs).output.dataSync();
    contenders.push({ name: `${backend}: whole call`, fn: () => rt.run(OP_ID.spmm, runArgs) });
    if (backend === 'wasm') {
      const { stages, notes: n2 } = await wasmStages(kargs);
      notes.push(...n2);
      for (const s of stages) contenders.push({ name: `wasm: ${s.name.trim()}`, fn: s.fn });
    } else {
      contenders.push({ name: 'js: kernel (all stages)', fn: () => jsKernels.sparse_tensor_dense_matmul(kargs) });
      contenders.push({ name: 'js: output allocation', fn: () => new Float32Array(m * n) });
    }
  }
  const checks = {};
  const peer = {};
  if (tools.gxx.ok) {
    const { exe, flags } = buildNative(join(work, 'spmm-native'));
    const first = runNative(exe, dir, m, k, n, nnz, 5);
    checks.native = Object.fromEntries(Object.entries(outputs).map(([b, o]) => [b, agrees(o, first.checksum)]));
    peer.native = `C++ CSR loop, g++ ${tools.gxx.version} ${flags}`;
    contenders.push({
      name: 'native C++',
      estimateMs: first.median_ms,
      turn: async (calls) => runNative(exe, dir, m, k, n, nnz, calls).median_ms,
    });
  } else notes.push(`native C++ loop skipped: ${tools.gxx.reason}`);
  let scipy;
  if (tools.python.ok) {
    scipy = await startScipy(meta);
    const first = await scipy.turn(5);
    checks.scipy = Object.fromEntries(Object.entries(outputs).map(([b, o]) => [b, agrees(o, first.checksum)]));
    peer.scipy = `scipy ${scipy.versions.scipy} csr_matrix @ ndarray (numpy ${scipy.versions.numpy}), OPENBLAS_NUM_THREADS=${process.env.OPENBLAS_NUM_THREADS ?? '1'}`;
    contenders.push({
      name: 'scipy',
      estimateMs: first.median_ms,
      turn: async (calls) => (await scipy.turn(calls)).median_ms,
    });
  } else notes.push(`scipy skipped: ${tools.python.reason}`);
  try {
    const r = await race(contenders, { rounds, log });
    const ratios = {};
    for (const [a, b] of [
      ['wasm: whole call', 'scipy'],
      ['wasm: whole call', 'native C++'],
      ['wasm: multiply', 'native C++'],
      ['wasm: multiply', 'scipy'],
      ['js: whole call', 'scipy'],
      ['js: whole call', 'native C++'],
      ['js: kernel (all stages)', 'native C++'],
      ['native C++', 'scipy'],
    ])
      ratios[`${a} ÷ ${b}`] = r.ratio(a, b);
    return { meta: { m, k, n, nnz }, rounds, results: r.results, ratios, checks, peer, notes };
  } finally {
    scipy?.close();
  }
}
