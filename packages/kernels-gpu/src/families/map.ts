import type { SparseData } from '../generated/kernel-types.js';
import type { GpuFamilySource } from '../generated/families.js';
import type { GpuContext } from '../gpu-context.js';
import { delegate } from '../delegate.js';
import { allFinite, gpuRefusal, REASONS } from '../delegation.js';
import { scalarArgs } from './scalar-args.js';
import type { FamilyOp } from '../generated/family-ops.js';

type Args = Record<string, unknown>;

/** A map op on the GPU: the stored values go in, one value per thread comes out; the indices stay on the host. */
export function mapKernel(ctx: GpuContext, op: string, meta: FamilyOp, src: GpuFamilySource, js: (a: never) => Args) {
  return (args: Args): Args => {
    const sp = args[meta.roles.sparse!] as SparseData;
    const refusal = gpuRefusal(sp.dtype, [sp.values as Float32Array]);
    if (refusal) return delegate(js, args, refusal);
    const n = sp.values.length;
    const values = n === 0 ? new Float32Array(0) : ctx.run(op, src.value, n, [sp.values, ...scalarArgs(meta, args)]);
    if (!allFinite(values)) return delegate(js, args, REASONS.nonFiniteResult);
    return { [meta.output]: { kind: 'sparse', indices: sp.indices.slice(), values, shape: sp.shape.slice(), dtype: sp.dtype } };
  };
}
