import type { DenseData, KernelResult, SparseData } from '@sparse/kernel-abi';
import {
  broadcastStrides,
  delegate,
  KernelError,
  reducedAxes,
  reducePlan,
  rowMajorStrides,
  sizeOf,
} from '@sparse/kernel-abi';
import { fitsI32, scalarArg, type WasmContext } from '../wasm-context.js';
import { REASONS } from '../delegation.js';
import type { FamilyOp } from '../generated/family-ops.js';
import type { Args, JsKernel } from '../kernel.js';

// The host side of the gradients codegen derives from the expression families (assembly/generated/families.ts,
// `<op>_grad__<dtype>`): each lays out the forward op's operands and the upstream gradient, runs one pass in wasm
// on one thread (a broadcast operand's gradient and a reduction's groups gather from many entries) and reads the
// gradients out. Each gradient of a sparse operand is a dense [nnz].

const dense = (data: DenseData['data'], shape: number[], dtype: DenseData['dtype']): DenseData => ({
  kind: 'dense',
  data,
  shape,
  dtype,
});
const scalarsOf = (meta: FamilyOp, args: Args) => meta.roles.scalars.map((s) => scalarArg(args[s] as never));

/** map: each stored value's gradient from its value and the upstream gradient of its output value. */
export function mapGradKernel(ctx: WasmContext, op: string, meta: FamilyOp) {
  return (args: Args): KernelResult<Args> => {
    const sp = args[meta.roles.sparse!] as SparseData;
    const grad = args.grad as DenseData;
    const n = sp.values.length;
    ctx.begin();
    const xv = ctx.valuesOf(sp);
    const gv = ctx.heap.putValues(sp.dtype, grad.data);
    const out = ctx.heap.zeros(sp.dtype, n);
    ctx.callFamily(`${op}__${sp.dtype}`, [xv, gv, n, out, ...scalarsOf(meta, args)]);
    return { [`${meta.roles.sparse}_grad`]: dense(ctx.heap.readValues(sp.dtype, out, n), [n], sp.dtype) };
  };
}

/** cwise: each stored value's gradient, and the dense operand's, summed over the entries each element reached. */
export function cwiseGradKernel(ctx: WasmContext, op: string, meta: FamilyOp, js: JsKernel) {
  return (args: Args): KernelResult<Args> => {
    const sp = args[meta.roles.sparse!] as SparseData;
    const dn = args[meta.roles.dense!] as DenseData;
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const { heap } = ctx;
    const n = sp.values.length;
    const rank = sp.shape.length;
    ctx.begin();
    const idx = ctx.indicesOf(sp);
    const strides = heap.putI32(broadcastStrides(dn.shape, rank));
    const av = ctx.valuesOf(sp);
    const bv = heap.putValues(sp.dtype, dn.data);
    const gv = heap.putValues(sp.dtype, (args.grad as DenseData).data);
    const outA = heap.zeros(sp.dtype, n);
    const outB = heap.zeros(sp.dtype, dn.data.length);
    ctx.callFamily(`${op}__${sp.dtype}`, [idx, rank, n, strides, av, bv, gv, outA, outB, ...scalarsOf(meta, args)]);
    return {
      [`${meta.roles.sparse}_grad`]: dense(heap.readValues(sp.dtype, outA, n), [n], sp.dtype),
      [`${meta.roles.dense}_grad`]: dense(heap.readValues(sp.dtype, outB, dn.data.length), dn.shape.slice(), sp.dtype),
    };
  };
}

/**
 * merge: two sparse operands, the merge walked again in wasm, each output entry's gradient to the operands that
 * held it (grad must have one value per output entry: the walk counts them); one dense operand, the steps taken
 * back in reverse.
 */
export function mergeGradKernel(ctx: WasmContext, op: string, meta: FamilyOp, js: JsKernel) {
  return (args: Args): KernelResult<Args> => {
    const [ra, rb] = [meta.roles.a!, meta.roles.b!];
    const a = args[ra] as SparseData | DenseData;
    const b = args[rb] as SparseData | DenseData;
    const grad = args.grad as DenseData;
    if (!fitsI32(a.shape)) return delegate(js, args, REASONS.wideDims);
    const scalars = scalarsOf(meta, args);
    const { heap } = ctx;
    const dtype = a.dtype;
    if (a.kind === 'sparse' && b.kind === 'sparse') {
      const [na, nb, ng] = [a.values.length, b.values.length, grad.data.length];
      ctx.begin();
      const bi = ctx.indicesOf(b);
      const ai = ctx.indicesOf(a);
      const av = ctx.valuesOf(a);
      const bv = ctx.valuesOf(b);
      const gv = heap.putValues(dtype, grad.data);
      const outA = heap.zeros(dtype, na);
      const outB = heap.zeros(dtype, nb);
      const m = ctx.callFamily(`${op}__${dtype}`, [
        ai,
        av,
        na,
        bi,
        bv,
        nb,
        a.shape.length,
        gv,
        ng,
        outA,
        outB,
        ...scalars,
      ]);
      if (m !== ng) throw new KernelError('GRAD_SIZE', ` (grad has ${ng} values for ${m} output entries)`);
      return {
        [`${ra}_grad`]: dense(heap.readValues(dtype, outA, na), [na], dtype),
        [`${rb}_grad`]: dense(heap.readValues(dtype, outB, nb), [nb], dtype),
      };
    }
    const sparseIsA = a.kind === 'sparse';
    const sp = (sparseIsA ? a : b) as SparseData;
    const dn = (sparseIsA ? b : a) as DenseData;
    const n = sp.values.length;
    ctx.begin();
    const idx = ctx.indicesOf(sp);
    const strides = heap.putI32(rowMajorStrides(dn.shape));
    const sv = ctx.valuesOf(sp);
    const cur = heap.putValues(dtype, dn.data);
    const before = heap.zeros(dtype, n);
    const adj = heap.putValues(dtype, grad.data);
    const outS = heap.zeros(dtype, n);
    ctx.callFamily(`${op}__${dtype}__dense`, [
      idx,
      sp.shape.length,
      n,
      strides,
      sv,
      sparseIsA,
      cur,
      before,
      adj,
      outS,
      ...scalars,
    ]);
    const sparseGrad = dense(heap.readValues(dtype, outS, n), [n], dtype);
    const denseGrad = dense(heap.readValues(dtype, adj, dn.data.length), dn.shape.slice(), dtype);
    return {
      [`${ra}_grad`]: sparseIsA ? sparseGrad : denseGrad,
      [`${rb}_grad`]: sparseIsA ? denseGrad : sparseGrad,
    };
  };
}

/**
 * reduce: each entry's group (its flat output offset for a dense output, computed in wasm; the shared JS plan for a
 * sparse one), then the groups' steps taken back in wasm.
 */
export function reduceGradKernel(ctx: WasmContext, op: string, meta: FamilyOp, js: JsKernel) {
  return (args: Args): KernelResult<Args> => {
    const sp = args[meta.roles.sparse!] as SparseData;
    const axes = args[meta.roles.axes!] as number[] | null;
    const keepdims = args[meta.roles.keepdims!] as boolean;
    const grad = args.grad as DenseData;
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const { heap } = ctx;
    const n = sp.values.length;
    const rank = sp.shape.length;
    const reduced = reducedAxes(axes, rank);
    const groupSize = sizeOf([...reduced].map((d) => sp.shape[d]));
    let group: number;
    let groups: number;
    if (meta.outputKind === 'dense') {
      const kept = sp.shape.map((_, d) => d).filter((d) => !reduced.has(d));
      const keptStrides = rowMajorStrides(kept.map((d) => sp.shape[d]));
      groups = grad.data.length;
      ctx.begin();
      const idx = ctx.indicesOf(sp);
      const st = heap.putI32(sp.shape.map((_, d) => (reduced.has(d) ? 0 : keptStrides[kept.indexOf(d)])));
      group = heap.alloc(n * 4);
      ctx.callFamily('flat_offsets', [idx, rank, n, st, group]);
    } else {
      const plan = reducePlan(sp, axes, keepdims, 'sparse');
      groups = plan.groups;
      if (grad.data.length !== groups)
        throw new KernelError('GRAD_SIZE', ` (grad has ${grad.data.length} values for ${groups} output entries)`);
      ctx.begin();
      group = heap.putI32(plan.group);
    }
    const xv = ctx.valuesOf(sp);
    const adj = heap.putValues(sp.dtype, grad.data);
    const count = heap.zeros('i32', groups);
    const acc = heap.zeros(sp.dtype, groups);
    const before = heap.zeros(sp.dtype, n);
    const out = heap.zeros(sp.dtype, n);
    ctx.callFamily(`${op}__${sp.dtype}`, [
      group,
      n,
      xv,
      groups,
      adj,
      count,
      groupSize,
      acc,
      before,
      out,
      ...scalarsOf(meta, args),
    ]);
    return { [`${meta.roles.sparse}_grad`]: dense(heap.readValues(sp.dtype, out, n), [n], sp.dtype) };
  };
}
