import type { DenseData, KernelResult, SparseData } from '@sparse/kernel-abi';
import { rowMajorStrides } from '@sparse/kernel-abi';
import { fitsI32, scalarArg, type WasmContext } from '../wasm-context.js';
import { delegate } from '../delegate.js';
import { REASONS } from '../delegation.js';
import type { FamilyOp } from '../generated/family-ops.js';
import type { Args, JsKernel } from '../kernel.js';

/**
 * A merge op in wasm. Two sparse operands: the linear two-pointer merge runs in wasm into buffers sized for the
 * whole union. One dense operand: the dense data goes in and each stored entry combines into it.
 */
export function mergeKernel(ctx: WasmContext, op: string, meta: FamilyOp, js: JsKernel) {
  return (args: Args): KernelResult<Args> => {
    const a = args[meta.roles.a!] as SparseData | DenseData;
    const b = args[meta.roles.b!] as SparseData | DenseData;
    if (!fitsI32(a.shape)) return delegate(js, args, REASONS.wideDims);
    const scalars = meta.roles.scalars.map((s) => scalarArg(args[s] as never));
    const { heap } = ctx;
    if (a.kind === 'sparse' && b.kind === 'sparse') {
      const rank = a.shape.length;
      const [na, nb] = [a.values.length, b.values.length];
      // b first: the index check checked it last, so its copy may still be staged.
      ctx.begin();
      const bi = ctx.indicesOf(b);
      const ai = ctx.indicesOf(a);
      const av = ctx.valuesOf(a);
      const bv = ctx.valuesOf(b);
      const oi = heap.alloc((na + nb) * rank * 4);
      const ov = heap.zeros(a.dtype, na + nb);
      const m = ctx.callFamily(`${op}__${a.dtype}`, [ai, av, na, bi, bv, nb, rank, oi, ov, ...scalars]);
      const output: SparseData = {
        kind: 'sparse',
        indices: heap.readIndices(oi, m * rank),
        values: heap.readValues(a.dtype, ov, m),
        shape: a.shape.slice(),
        dtype: a.dtype,
      };
      return { [meta.output]: output };
    }
    const sparseIsA = a.kind === 'sparse';
    const sp = (sparseIsA ? a : b) as SparseData;
    const dn = (sparseIsA ? b : a) as DenseData;
    ctx.begin();
    const idx = ctx.indicesOf(sp);
    const strides = heap.putI32(rowMajorStrides(dn.shape));
    const sv = ctx.valuesOf(sp);
    const out = heap.putValues(dn.dtype, dn.data);
    ctx.callFamily(
      `${op}__${dn.dtype}__dense`,
      [idx, sp.shape.length, sp.values.length, strides, sv, sparseIsA, out, ...scalars],
      { what: `${sparseIsA ? meta.roles.a : meta.roles.b}.indices`, st: sp },
    );
    const output: DenseData = {
      kind: 'dense',
      data: heap.readValues(dn.dtype, out, dn.data.length),
      shape: dn.shape.slice(),
      dtype: dn.dtype,
    };
    return { [meta.output]: output };
  };
}
