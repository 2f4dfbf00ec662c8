import { broadcastStrides, delegate } from '@sparse/kernel-abi';
import type { DenseData, KernelResult, SparseData } from '@sparse/kernel-abi';
import type { GpuFamilySource } from '../generated/families.js';
import type { GpuContext } from '../gpu-context.js';
import type { JsKernel, Args } from '../kernel.js';
import { allFinite, gpuRefusal, REASONS } from '../delegation.js';
import { asFloat32, fromGpu, int32FamilyRefusal, rangeOf } from '../int32-route.js';
import { magnitudesOf, subnormalFamilyRefusal } from '../subnormal-bound.js';
import { scalarArgs } from './scalar-args.js';
import type { FamilyOp } from '../generated/family-ops.js';

/**
 * A cwise op on the GPU: the host computes each stored entry's offset into the (broadcast) dense operand; the GPU
 * gathers the dense value there and evaluates the expression, one stored entry per thread.
 */
export function cwiseKernel(ctx: GpuContext, op: string, meta: FamilyOp, src: GpuFamilySource, js: JsKernel) {
  return (args: Args): KernelResult<Args> => {
    const sp = args[meta.roles.sparse!] as SparseData;
    const dense = args[meta.roles.dense!] as DenseData;
    const [av, dv] = [sp.values as Float32Array | Int32Array, dense.data as Float32Array | Int32Array];
    const scalars = scalarArgs(meta, args);
    const refusal = gpuRefusal(sp.dtype, [av, dv], {
      float32: () => subnormalFamilyRefusal(src, [magnitudesOf(av), magnitudesOf(dv)], scalars),
      int32: () => int32FamilyRefusal(src, [rangeOf(av), rangeOf(dv)], scalars),
    });
    if (refusal) return delegate(js, args, refusal);
    const n = sp.values.length;
    const rank = sp.shape.length;
    const strides = broadcastStrides(dense.shape, rank);
    const off = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      let o = 0;
      for (let d = 0; d < rank; d++) o += sp.indices[i * rank + d] * strides[d];
      off[i] = o;
    }
    // An empty dense operand is never read (no entries), but a texture needs one element.
    const bv = dv.length ? asFloat32(dv) : new Float32Array(1);
    const values =
      n === 0
        ? new Float32Array(0)
        : ctx.run(op, src.value, n, [asFloat32(av), bv, off, ...scalars], {
            functions: src.functions,
          });
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
