// One stage of the wasm SpMM call (stages-wasm.mjs) called WARMUP + CALLS times on a data dir: the program
// cachegrind counts to set the kernel proper beside the native loop, instruction for instruction.
// Usage: node wasm-stage.mjs STAGE META_JSON CALLS [WARMUP]
import { kernelArgs, opArgs } from '../lib/load.mjs';
import { wasmStages } from '../stages-wasm.mjs';

const [name, metaJson, calls, warmup = '2'] = process.argv.slice(2);
const { stages } = await wasmStages(kernelArgs(opArgs('spmm', JSON.parse(metaJson))));
const stage = stages.find((s) => s.name.trim() === name);
if (!stage) throw new Error(`no wasm stage '${name}' (there are: ${stages.map((s) => s.name.trim()).join(', ')})`);
for (let i = 0; i < Number(warmup) + Number(calls); i++) stage.fn();
