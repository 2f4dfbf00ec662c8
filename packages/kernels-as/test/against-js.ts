import { isDelegation, type SparseData } from '@sparse/kernel-abi';
import { kernels as jsKernels } from '@sparse/kernels-js';
import { dataDiff } from '@sparse/test-kit/data-diff';
import type { WasmBackend } from '../dist/index.js';

type Args = Record<string, unknown>;
type Outputs = Record<string, unknown>;

// Arguments the runtime checks without their last dim (bounds: except_last in the specs): it does not ask the
// backend's index check about them.
const EXCEPT_LAST = new Set(['sparse_merge.sp_ids', 'sparse_to_indicator.sp_input']);

/**
 * Calls a wasm kernel as the runtime calls it: the backend's index check first on every sparse argument checked in
 * full (a large one passes through wasm and stays staged there for the kernel), then the kernel, with the very
 * same argument objects. Returns the outputs and, if the kernel handed the call to the JS kernels, why.
 */
export function runWasm(backend: WasmBackend, op: string, args: Args): { outputs: Outputs; delegated?: string } {
  for (const [name, v] of Object.entries(args)) {
    if (EXCEPT_LAST.has(`${op}.${name}`)) continue;
    for (const x of Array.isArray(v) ? v : [v]) if (isSparse(x)) backend.indicesValid(x);
  }
  const result = backend.kernels[op](args);
  return isDelegation(result) ? { outputs: result.outputs, delegated: result.reason } : { outputs: result };
}

/** The JS reference kernel's outputs. */
export function runJs(op: string, args: Args): Outputs {
  return (jsKernels as unknown as Record<string, (a: Args) => Outputs>)[op](args);
}

/** Runs op on wasm and on the JS kernels: where their outputs differ (undefined: identical), and any delegation. */
export function againstJs(backend: WasmBackend, op: string, args: Args): { diff?: string; delegated?: string } {
  const wasm = runWasm(backend, op, args);
  const js = runJs(op, args);
  const names = Object.keys(js);
  if (Object.keys(wasm.outputs).sort().join() !== [...names].sort().join())
    return { diff: `outputs ${Object.keys(wasm.outputs)} vs ${names}`, delegated: wasm.delegated };
  for (const name of names) {
    const diff = dataDiff(wasm.outputs[name], js[name], name);
    if (diff) return { diff, delegated: wasm.delegated };
  }
  return { delegated: wasm.delegated };
}

function isSparse(x: unknown): x is SparseData {
  return (x as SparseData | undefined)?.kind === 'sparse';
}
