import { broadcastStrides, delegate, mergePlan, takeMerged } from '@sparse/kernel-abi';
import type { DenseData, KernelResult, SparseData } from '@sparse/kernel-abi';
import type { GpuFamilySource } from '../generated/families.js';
import type { GpuContext } from '../gpu-context.js';
import { allFinite, EXACT_INT, gpuRefusal, REASONS } from '../delegation.js';
import { asFloat32, fromGpu, int32FamilyRefusal, rangeOf } from '../int32-route.js';
import { magnitudesOf, subnormalFamilyRefusal } from '../subnormal-bound.js';
import { scalarArgs } from './scalar-args.js';
import type { FamilyOp } from '../generated/family-ops.js';
import type { JsKernel, Args } from '../kernel.js';

/**
 * A merge op on the GPU (two sparse operands): the host plans the merge of the two sorted index sets with the JS
 * backend's shared helper and gathers each output entry's a and b values; the GPU combines them (only_a, only_b
 * or expr, by side) and evaluates keep; the host drops the entries not kept. One dense operand: see mergeDense.
 */
export function mergeKernel(ctx: GpuContext, op: string, meta: FamilyOp, src: GpuFamilySource, js: JsKernel) {
  return (args: Args): KernelResult<Args> => {
    const a = args[meta.roles.a!] as SparseData;
    const b = args[meta.roles.b!] as SparseData;
    if (a.kind !== 'sparse' || b.kind !== 'sparse') return mergeDense(ctx, op, meta, src, js, args);
    const [x, y] = [a.values as Float32Array | Int32Array, b.values as Float32Array | Int32Array];
    const scalars = scalarArgs(meta, args);
    const refusal = gpuRefusal(a.dtype, [x, y, scalars], {
      float32: () => subnormalFamilyRefusal(src, [magnitudesOf(x), magnitudesOf(y)], scalars),
      int32: () => int32FamilyRefusal(src, [rangeOf(x), rangeOf(y)], scalars),
    });
    if (refusal) return delegate(js, args, refusal);
    if (x.length + y.length > EXACT_INT) return delegate(js, args, REASONS.tooBig);
    const plan = mergePlan(a, b, src.join as 'union' | 'intersection');
    const n = plan.n;
    const side = new Float32Array(n);
    const av = new Float32Array(n);
    const bv = new Float32Array(n);
    for (let k = 0; k < n; k++) {
      const i = plan.fromA[k];
      const j = plan.fromB[k];
      side[k] = (i >= 0 ? 1 : 0) + (j >= 0 ? 2 : 0);
      if (i >= 0) av[k] = a.values[i] as number;
      if (j >= 0) bv[k] = b.values[j] as number;
    }
    let values: Float32Array = new Float32Array(0);
    let keep: Float32Array = new Float32Array(0);
    if (n > 0) {
      values = ctx.run(op, src.value, n, [side, av, bv, ...scalars], { functions: src.functions });
      if (!allFinite(values)) return delegate(js, args, REASONS.nonFiniteResult);
      keep = ctx.run(`${op}:keep`, src.keep!, n, [side, av, bv, values, ...scalars], { functions: src.functions });
    }
    const kept = new Uint32Array(n);
    let m = 0;
    for (let k = 0; k < n; k++) {
      if (keep[k] === 0) continue;
      values[m] = values[k];
      kept[m++] = k;
    }
    return { [meta.output]: takeMerged(plan, fromGpu(values, a.dtype), kept, m, a, b) };
  };
}

/**
 * Sparse ⊕ dense (a dense result): the host gathers the dense value at each stored entry's offset, the GPU combines
 * each pair with the expression (the same kernel, every entry on both sides), the host writes the results into a copy
 * of the dense data. The offsets are strictly increasing (canonical order, checked by the runtime), so no entry
 * depends on another; were one repeated (a repeated index, or a broadcast dense operand), the call is delegated.
 */
function mergeDense(
  ctx: GpuContext,
  op: string,
  meta: FamilyOp,
  src: GpuFamilySource,
  js: JsKernel,
  args: Args,
): KernelResult<Args> {
  const a = args[meta.roles.a!] as SparseData | DenseData;
  const b = args[meta.roles.b!] as SparseData | DenseData;
  const sparseIsA = a.kind === 'sparse';
  const sp = (sparseIsA ? a : b) as SparseData;
  const dn = (sparseIsA ? b : a) as DenseData;
  const [sv, dv] = [sp.values as Float32Array | Int32Array, dn.data as Float32Array | Int32Array];
  const scalars = scalarArgs(meta, args);
  // The expression's operands in its order, a then b, from the sparse side's and the dense side's.
  const inOrder = <T>(ofSparse: T, ofDense: T): T[] => (sparseIsA ? [ofSparse, ofDense] : [ofDense, ofSparse]);
  const refusal = gpuRefusal(dn.dtype, [sv, dv, scalars], {
    float32: () => subnormalFamilyRefusal(src, inOrder(magnitudesOf(sv), magnitudesOf(dv)), scalars),
    int32: () => int32FamilyRefusal(src, inOrder(rangeOf(sv), rangeOf(dv)), scalars),
  });
  if (refusal) return delegate(js, args, refusal);
  const n = sv.length;
  const rank = sp.shape.length;
  const strides = broadcastStrides(dn.shape, rank);
  const off = new Float64Array(n);
  const gathered = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let o = 0;
    for (let d = 0; d < rank; d++) o += sp.indices[i * rank + d] * strides[d];
    if (i > 0 && o <= off[i - 1]) return delegate(js, args, REASONS.repeatedEntries);
    off[i] = o;
    gathered[i] = dn.data[o] as number;
  }
  const data = dv.slice();
  if (n > 0) {
    const side = new Float32Array(n).fill(3);
    const [av, bv] = inOrder(asFloat32(sv), gathered);
    const values = ctx.run(op, src.value, n, [side, av, bv, ...scalars], { functions: src.functions });
    if (!allFinite(values)) return delegate(js, args, REASONS.nonFiniteResult);
    const result = fromGpu(values, dn.dtype);
    for (let i = 0; i < n; i++) data[off[i]] = result[i];
  }
  return { [meta.output]: { kind: 'dense', data, shape: dn.shape.slice(), dtype: dn.dtype } satisfies DenseData };
}
