import { delegate, reducePlan } from '@sparse/kernel-abi';
import type { KernelResult, SparseData } from '@sparse/kernel-abi';
import type { GpuFamilySource } from '../generated/families.js';
import type { GpuContext } from '../gpu-context.js';
import { allFinite, EXACT_INT, gpuRefusal, REASONS } from '../delegation.js';
import { fromGpu, int32FamilyRefusal, longestGroup, rangeOf } from '../int32-route.js';
import { magnitudesOf, subnormalFamilyRefusal } from '../subnormal-bound.js';
import { scalarArgs } from './scalar-args.js';
import type { FamilyOp } from '../generated/family-ops.js';
import type { JsKernel, Args } from '../kernel.js';

/**
 * A reduce op on the GPU: the host groups the entries with the JS backend's shared plan and lays each group's
 * values out contiguously (a stable counting sort: each group keeps its entries' order, so the GPU combines them in
 * the JS kernel's order), as a start and a count per group; one thread per group loops over its entries.
 */
export function reduceKernel(ctx: GpuContext, op: string, meta: FamilyOp, src: GpuFamilySource, js: JsKernel) {
  return (args: Args): KernelResult<Args> => {
    const sp = args[meta.roles.sparse!] as SparseData;
    const scalars = scalarArgs(meta, args);
    // The plan inside the bounds, which need the longest group: a delegated dtype never needs it.
    const planOf = () =>
      reducePlan(sp, args[meta.roles.axes!] as number[] | null, args[meta.roles.keepdims!] as boolean, meta.outputKind);
    let planned: ReturnType<typeof planOf> | undefined;
    const x = sp.values as Float32Array | Int32Array;
    const refusal = gpuRefusal(sp.dtype, [x], {
      float32: () => {
        planned = planOf();
        return subnormalFamilyRefusal(src, [magnitudesOf(x)], scalars, longestGroup(planned.count));
      },
      int32: () => {
        planned = planOf();
        return int32FamilyRefusal(src, [rangeOf(x)], scalars, {
          longest: longestGroup(planned.count),
          groupSize: planned.groupSize,
        });
      },
    });
    if (refusal) return delegate(js, args, refusal);
    // float32 and int32, the dtypes taken here, have planned the call in their bounds.
    const plan = planned!;
    const n = x.length;
    const g = plan.groups;
    if (g > EXACT_INT) return delegate(js, args, REASONS.tooBig);
    const start = new Float32Array(g + 1);
    let longest = 0;
    for (let s = 0; s < g; s++) {
      start[s + 1] = start[s] + plan.count[s];
      longest = Math.max(longest, plan.count[s]);
    }
    const fill = start.slice(0, g);
    const xv = new Float32Array(Math.max(1, n));
    for (let i = 0; i < n; i++) xv[fill[plan.group[i]]++] = x[i];
    const cnt = Float32Array.from(plan.count);
    const groupSize = Math.min(plan.groupSize, EXACT_INT);
    const loopMax = 2 ** Math.ceil(Math.log2(Math.max(1, longest)));
    const out =
      g === 0
        ? new Float32Array(0)
        : ctx.run(
            op,
            src.value,
            g,
            [xv, start.subarray(0, g), cnt.length ? cnt : new Float32Array(1), groupSize, ...scalars],
            { loopMaxIterations: loopMax, functions: src.functions },
          );
    if (!allFinite(out)) return delegate(js, args, REASONS.nonFiniteResult);
    const values = fromGpu(out, sp.dtype);
    const output =
      meta.outputKind === 'dense'
        ? { kind: 'dense', data: values, shape: plan.shape, dtype: sp.dtype }
        : { kind: 'sparse', indices: plan.indices!, values, shape: plan.shape, dtype: sp.dtype };
    return { [meta.output]: output };
  };
}
