/// <reference types="@webgpu/types" />
import {
  allocIndices,
  bincountPlan,
  delegation,
  magnitude as M,
  magnitudesOf,
  sameKey,
  type SparseData,
} from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { allNormal, REASONS } from '../delegation.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/** int32: each counted entry adds its weight (1 without weights) to its output entry; i32 atomics wrap. p = [count]. */
const ATOMIC_COUNT = (weighted: boolean) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> slot: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<atomic<i32>>;
${weighted ? '@group(0) @binding(3) var<storage, read> w: array<i32>;' : ''}
${ENTRY}
  if (i >= p[0]) { return; }
  atomicAdd(&out[slot[i]], ${weighted ? 'w[i]' : '1'});
}
`;

/** float32: each output entry sums its run of weights (in canonical order, stable: entry order within a key). p = [runs]. */
const RUN_SUM = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> runPtr: array<u32>;
@group(0) @binding(2) var<storage, read> w: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
${ENTRY}
  if (i >= p[0]) { return; }
  var s = 0.0;
  for (var q = runPtr[i]; q < runPtr[i + 1u]; q++) {
    s = s + w[q];
  }
  out[i] = s;
}
`;

/**
 * sparse_bincount on the GPU where the output is int32 or float32 (float64 and int64 outputs run on the JS
 * kernels). The host makes the plan as the JS kernel does (the counted entries keyed by [row, value] or [value],
 * one stable sort into canonical order, one output entry per run of a key: the output's indices), then the GPU sums:
 * int32 counts and int32 weights by atomicAdd of each entry into its output entry (i32 addition wraps and is
 * associative, so any order is exact); float32 weights, whose rounding depends on the order, one invocation per
 * output entry over its run in entry order. binary_output gives 1 per entry, with no sum to compute. One read.
 */
export const sparseBincount: KernelFactory<'sparse_bincount'> = (ctx, js) => async (args) => {
  const { values, weights, axis, minlength, maxlength } = args;
  const dtype = weights?.dtype ?? values.dtype;
  if (dtype !== 'int32' && dtype !== 'float32') return delegation(js(args), REASONS.notComputed(dtype));
  const { counted, shape, keys, order } = bincountPlan(values, axis, minlength, maxlength);
  const rank = shape.length;
  const m = counted.length;
  // runPtr: each run's first position in `order`; slot: each counted entry's output entry.
  const runPtr = new Uint32Array(m + 1);
  const slot = new Uint32Array(m);
  let runs = 0;
  for (let k = 0; k < m; k++) {
    if (k === 0 || !sameKey(keys, order[k - 1], order[k], rank)) runPtr[runs++] = k;
    slot[order[k]] = runs - 1;
  }
  runPtr[runs] = m;
  const indices = allocIndices(runs * rank, false);
  for (let e = 0; e < runs; e++) {
    const j = order[runPtr[e]];
    for (let d = 0; d < rank; d++) indices[e * rank + d] = keys[j * rank + d];
  }
  const result = (data: Int32Array | Float32Array) => ({
    output: { kind: 'sparse', indices, values: data, shape, dtype } satisfies SparseData,
  });
  const Store = dtype === 'int32' ? Int32Array : Float32Array;
  if (args.binary_output) return result(new Store(runs).fill(1));
  if (runs === 0) return result(new Store(0));

  if (dtype === 'int32') {
    const w = weights?.values as Int32Array | undefined;
    const wc = w ? Int32Array.from(counted, (i) => w[i]) : undefined;
    if (!ctx.fits(m * 4) || !ctx.fits(runs * 4)) throw new BindingLimitError(ctx.maxBindingBytes);
    const out = ctx.buffer(runs * 4);
    const uploaded = [ctx.upload(Uint32Array.of(m)), ctx.upload(slot), ...(wc ? [ctx.upload(wc)] : [])];
    try {
      ctx.dispatch({
        code: ATOMIC_COUNT(!!wc),
        buffers: [uploaded[0], uploaded[1], out, ...uploaded.slice(2)],
        threads: m,
      });
      const [bytes] = await ctx.read([out, runs * 4]);
      return result(new Int32Array(bytes));
    } finally {
      ctx.release(out, ...uploaded);
    }
  }

  // float32 weights (a float32 output always has weights): in canonical order, each run summed in entry order.
  const w = weights!.values as Float32Array;
  const ws = new Float32Array(m);
  for (let k = 0; k < m; k++) ws[k] = w[counted[order[k]]];
  if (!allNormal(ws)) return delegation(js(args), REASONS.nonFinite);
  const mag = magnitudesOf(ws);
  if (!M.add(mag, mag)) return delegation(js(args), REASONS.subnormal);
  if (!ctx.fits(m * 4) || !ctx.fits((runs + 1) * 4)) throw new BindingLimitError(ctx.maxBindingBytes);
  const out = ctx.buffer(runs * 4);
  const uploaded = [ctx.upload(Uint32Array.of(runs)), ctx.upload(runPtr.subarray(0, runs + 1)), ctx.upload(ws)];
  let data: Float32Array;
  try {
    ctx.dispatch({ code: RUN_SUM, buffers: [...uploaded, out], threads: runs });
    const [bytes] = await ctx.read([out, runs * 4]);
    data = new Float32Array(bytes);
  } finally {
    ctx.release(out, ...uploaded);
  }
  if (!allNormal(data)) return delegation(js(args), REASONS.nonFiniteResult);
  return result(data);
};
