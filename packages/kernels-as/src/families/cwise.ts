import { broadcastStrides, delegate } from '@sparse/kernel-abi';
import type { DenseData, KernelResult, SparseData } from '@sparse/kernel-abi';
import { fitsI32, scalarArg, type WasmContext } from '../wasm-context.js';
import { bytesPerElement } from '../heap.js';
import { REASONS } from '../delegation.js';
import type { FamilyOp } from '../generated/family-ops.js';
import type { Args, JsKernel } from '../kernel.js';

/** A cwise op in wasm: the stored entries, their indices, and the dense operand with its broadcast strides go in. */
export function cwiseKernel(ctx: WasmContext, op: string, meta: FamilyOp, js: JsKernel) {
  return (args: Args): KernelResult<Args> => {
    const sp = args[meta.roles.sparse!] as SparseData;
    const dense = args[meta.roles.dense!] as DenseData;
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const { heap } = ctx;
    const n = sp.values.length;
    const rank = sp.shape.length;
    ctx.begin();
    const idx = ctx.indicesOf(sp);
    const strides = heap.putI32(broadcastStrides(dense.shape, rank));
    const av = ctx.valuesOf(sp);
    const bv = ctx.dataOf(dense);
    const out = heap.zeros(sp.dtype, n);
    const scalars = meta.roles.scalars.map((s) => scalarArg(args[s] as never));
    // Entries cut evenly between the threads, each writing its entries' values.
    const size = bytesPerElement(sp.dtype);
    const cuts = ctx.cuts(n, n, (i) => i);
    ctx.callFamilyParts(
      `${op}__${sp.dtype}`,
      cuts.slice(1).map((e1, k) => {
        const e0 = cuts[k];
        const args = [idx + e0 * rank * 4, rank, e1 - e0, strides, av + e0 * size, bv, out + e0 * size, ...scalars];
        return { args, entryOffset: e0 };
      }),
      { what: `${meta.roles.sparse}.indices`, st: sp },
    );
    const values = heap.readValues(sp.dtype, out, n);
    return {
      [meta.output]: { kind: 'sparse', indices: sp.indices.slice(), values, shape: sp.shape.slice(), dtype: sp.dtype },
    };
  };
}
