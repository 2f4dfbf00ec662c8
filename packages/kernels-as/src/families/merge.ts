import type { DenseData, KernelResult, SparseData } from '@sparse/kernel-abi';
import { delegate, rowMajorStrides } from '@sparse/kernel-abi';
import { fitsI32, scalarArg, type WasmContext } from '../wasm-context.js';
import { bytesPerElement } from '../heap.js';
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
      const size = bytesPerElement(a.dtype);
      // Cut between the threads at rows (values of the first index): each part merges the entries of its rows,
      // of a and of b, into its own stretch of the output, and the stretches are then closed up.
      const { aCuts, bCuts } = rowCuts(ctx, a, b);
      const counts = ctx.callFamilyParts(
        `${op}__${a.dtype}`,
        aCuts.slice(1).map((_, k) => {
          const [a0, a1, b0, b1] = [aCuts[k], aCuts[k + 1], bCuts[k], bCuts[k + 1]];
          const o = a0 + b0;
          const args = [ai + a0 * rank * 4, av + a0 * size, a1 - a0, bi + b0 * rank * 4, bv + b0 * size, b1 - b0];
          return { args: [...args, rank, oi + o * rank * 4, ov + o * size, ...scalars], entryOffset: o };
        }),
      );
      let m = counts[0];
      for (let k = 1; k < counts.length; k++) {
        const o = aCuts[k] + bCuts[k];
        heap.move(oi + o * rank * 4, counts[k] * rank * 4, oi + m * rank * 4);
        heap.move(ov + o * size, counts[k] * size, ov + m * size);
        m += counts[k];
      }
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

/**
 * Where a merge of a and b (each in row-major order) is cut between the threads: at first-index values, so that
 * the entries of one row all go to one part; about equal entries a part. One part on one thread.
 */
function rowCuts(ctx: WasmContext, a: SparseData, b: SparseData): { aCuts: number[]; bCuts: number[] } {
  const [na, nb] = [a.values.length, b.values.length];
  if (a.shape.length === 0 || ctx.threads === 1) return { aCuts: [0, na], bCuts: [0, nb] };
  const cuts = ctx.cuts(a.shape[0], na + nb, (r) => before(a, r) + before(b, r));
  return { aCuts: cuts.map((r) => before(a, r)), bCuts: cuts.map((r) => before(b, r)) };
}

/** How many of st's entries (row-major order) have a first index below `row`: a binary search. */
function before(st: SparseData, row: number): number {
  const rank = st.shape.length;
  let lo = 0;
  let hi = st.values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (st.indices[mid * rank] < row) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
