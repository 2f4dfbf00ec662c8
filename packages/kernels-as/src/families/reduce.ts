import type { KernelResult, SparseData } from '@sparse/kernel-abi';
import { delegate, reducedAxes, reducePlan, rowMajorStrides, sizeOf } from '@sparse/kernel-abi';
import { fitsI32, scalarArg, type WasmContext } from '../wasm-context.js';
import { REASONS } from '../delegation.js';
import type { FamilyOp } from '../generated/family-ops.js';
import type { Args, JsKernel } from '../kernel.js';

/**
 * A reduce op in wasm. Dense output: each entry's group (its flat output offset) is computed in wasm; where every
 * group's entries are consecutive (all axes reduced: one group; a matrix reduced over its columns with its rows in
 * order: the CSR rows), the runs kernel takes the group bounds instead and no per-entry group is made. Sparse
 * output: the groups need a sort, which the shared JS plan does; the reduction itself runs in wasm.
 */
export function reduceKernel(ctx: WasmContext, op: string, meta: FamilyOp, js: JsKernel) {
  return (args: Args): KernelResult<Args> => {
    const sp = args[meta.roles.sparse!] as SparseData;
    const axes = args[meta.roles.axes!] as number[] | null;
    const keepdims = args[meta.roles.keepdims!] as boolean;
    if (!fitsI32(sp.shape)) return delegate(js, args, REASONS.wideDims);
    const { heap } = ctx;
    const n = sp.values.length;
    const rank = sp.shape.length;
    const reduced = reducedAxes(axes, rank);
    const groupSize = sizeOf([...reduced].map((d) => sp.shape[d]));
    const scalars = meta.roles.scalars.map((s) => scalarArg(args[s] as never));
    const accBytes = sp.dtype === 'float64' || sp.dtype === 'int64' ? 8 : 4;
    let group: number;
    let groups: number;
    let shape: number[];
    let indices: Float64Array | undefined;
    if (meta.outputKind === 'dense') {
      const kept = sp.shape.map((_, d) => d).filter((d) => !reduced.has(d));
      shape = keepdims ? sp.shape.map((dim, d) => (reduced.has(d) ? 1 : dim)) : kept.map((d) => sp.shape[d]);
      groups = sizeOf(shape);
      ctx.begin();
      const starts = runStarts(ctx, sp, reduced);
      if (starts !== undefined) {
        const xv = ctx.valuesOf(sp);
        const acc = heap.alloc(groups * accBytes);
        // Groups cut between the threads by their entries, each thread writing its groups' results.
        const at = heap.i32(starts, groups + 1);
        const cuts = ctx.cuts(groups, n, (g) => at[g] + g);
        ctx.callFamilyParts(
          `${op}__${sp.dtype}__runs`,
          cuts.slice(1).map((g1, k) => {
            const g0 = cuts[k];
            return { args: [starts + g0 * 4, g1 - g0, xv, acc + g0 * accBytes, groupSize, ...scalars] };
          }),
        );
        return {
          [meta.output]: { kind: 'dense', data: heap.readValues(sp.dtype, acc, groups), shape, dtype: sp.dtype },
        };
      }
      const keptStrides = rowMajorStrides(kept.map((d) => sp.shape[d]));
      const strides = sp.shape.map((_, d) => (reduced.has(d) ? 0 : keptStrides[kept.indexOf(d)]));
      const idx = ctx.indicesOf(sp);
      const st = heap.putI32(strides);
      group = heap.alloc(n * 4);
      ctx.callFamily('flat_offsets', [idx, rank, n, st, group]);
    } else {
      const plan = reducePlan(sp, axes, keepdims, 'sparse');
      ({ groups, shape, indices } = plan);
      ctx.begin();
      group = heap.putI32(plan.group);
    }
    const xv = ctx.valuesOf(sp);
    const acc = heap.alloc(groups * accBytes);
    const count = heap.zeros('i32', groups);
    ctx.callFamily(`${op}__${sp.dtype}`, [group, n, xv, groups, acc, count, groupSize, ...scalars]);
    const values = heap.readValues(sp.dtype, acc, groups);
    const output =
      meta.outputKind === 'dense'
        ? { kind: 'dense', data: values, shape, dtype: sp.dtype }
        : { kind: 'sparse', indices: indices!, values, shape, dtype: sp.dtype };
    return { [meta.output]: output };
  };
}

/**
 * The bounds of each group's run of entries (groups + 1 i32) where the groups are runs: every axis reduced (one
 * group, all the entries, in any order), or a matrix reduced over its columns whose rows never decrease (its CSR
 * row pointers, kept with its prepared indices). Undefined otherwise.
 */
function runStarts(ctx: WasmContext, sp: SparseData, reduced: Set<number>): number | undefined {
  const rank = sp.shape.length;
  if (reduced.size === rank) return ctx.heap.putI32([0, sp.values.length]);
  if (rank !== 2 || !reduced.has(1) || reduced.has(0)) return undefined;
  const rows = ctx.rowIndex(sp, ctx.indicesOf(sp));
  return rows.rowsOrdered ? rows.ptr : undefined;
}
