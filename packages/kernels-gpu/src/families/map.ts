import { delegate } from '@sparse/kernel-abi';
import type { KernelResult, SparseData } from '@sparse/kernel-abi';
import type { GpuFamilySource } from '../generated/families.js';
import type { GpuContext } from '../gpu-context.js';
import type { JsKernel, Args } from '../kernel.js';
import { allFinite, gpuRefusal, REASONS } from '../delegation.js';
import { asFloat32, fromGpu, int32FamilyRefusal, rangeOf } from '../int32-route.js';
import { magnitudesOf, subnormalFamilyRefusal } from '../subnormal-bound.js';
import { scalarArgs } from './scalar-args.js';
import type { FamilyOp } from '../generated/family-ops.js';

/** A map op on the GPU: the stored values go in, one value per thread comes out; the indices stay on the host. */
export function mapKernel(ctx: GpuContext, op: string, meta: FamilyOp, src: GpuFamilySource, js: JsKernel) {
  return (args: Args): KernelResult<Args> => {
    const sp = args[meta.roles.sparse!] as SparseData;
    const x = sp.values as Float32Array | Int32Array;
    const scalars = scalarArgs(meta, args);
    const refusal = gpuRefusal(sp.dtype, [x], {
      float32: () => subnormalFamilyRefusal(src, [magnitudesOf(x)], scalars),
      int32: () => int32FamilyRefusal(src, [rangeOf(x)], scalars),
    });
    if (refusal) return delegate(js, args, refusal);
    const n = x.length;
    const values =
      n === 0
        ? new Float32Array(0)
        : ctx.run(op, src.value, n, [asFloat32(x), ...scalars], { functions: src.functions });
    if (!allFinite(values)) return delegate(js, args, REASONS.nonFiniteResult);
    return {
      [meta.output]: {
        kind: 'sparse',
        indices: sp.indices.slice(),
        values: fromGpu(values, sp.dtype),
        shape: sp.shape.slice(),
        dtype: sp.dtype,
      },
    };
  };
}
