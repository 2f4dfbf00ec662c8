import type { KernelResult, SparseData } from '@sparse/kernel-abi';
import { scalarArg, type WasmContext } from '../wasm-context.js';
import type { FamilyOp } from '../generated/family-ops.js';
import type { Args } from '../kernel.js';

/** A map op in wasm: only the values go in; the indices stay on the JS side as they are. */
export function mapKernel(ctx: WasmContext, op: string, meta: FamilyOp) {
  return (args: Args): KernelResult<Args> => {
    const sp = args[meta.roles.sparse!] as SparseData;
    const { heap } = ctx;
    const n = sp.values.length;
    ctx.begin();
    const xv = ctx.valuesOf(sp);
    const out = heap.zeros(sp.dtype, n);
    const scalars = meta.roles.scalars.map((s) => scalarArg(args[s] as never));
    ctx.callFamily(`${op}__${sp.dtype}`, [xv, n, out, ...scalars], { what: `${meta.roles.sparse}.indices`, st: sp });
    return {
      [meta.output]: {
        kind: 'sparse',
        indices: sp.indices.slice(),
        values: heap.readValues(sp.dtype, out, n),
        shape: sp.shape.slice(),
        dtype: sp.dtype,
      },
    };
  };
}
