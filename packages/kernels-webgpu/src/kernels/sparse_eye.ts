/// <reference types="@webgpu/types" />
import { delegation, type SparseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import { REASONS } from '../delegation.js';
import type { KernelFactory } from '../kernel.js';
import { FLOAT64_INDEX, indicesOf } from '../structural/float64-index.js';

/** Entry i: index [i, i] as float64 words, value the one's bits. p = [n, one's bits]. */
const EYE = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read_write> idx: array<u32>;
@group(0) @binding(2) var<storage, read_write> vals: array<u32>;
${FLOAT64_INDEX}
${ENTRY}
  if (i >= p[0]) { return; }
  let e = encodeIndex(vec2u(i, 0u));
  idx[4u * i] = e.x;
  idx[4u * i + 1u] = e.y;
  idx[4u * i + 2u] = e.x;
  idx[4u * i + 3u] = e.y;
  vals[i] = p[1];
}
`;

/** The bits of a one: float32 1.0, int32 1. */
const ONE = { float32: 0x3f800000, int32: 1 } as const;

/**
 * sparse_eye (float32 and int32) on the GPU: one thread an entry writes [i, i] and a one, in canonical order as
 * js. Other dtypes, and dims that are not whole numbers >= 0 (the runtime refuses them), run on the JS kernels.
 * One submission, one read; none for no entries.
 */
export const sparseEye: KernelFactory<'sparse_eye'> = (ctx, js) => async (args) => {
  const { num_rows, num_columns, dtype } = args;
  if (dtype !== 'float32' && dtype !== 'int32') return delegation(js(args), REASONS.notComputed(dtype));
  const Store = dtype === 'float32' ? Float32Array : Int32Array;
  const columns = num_columns ?? num_rows;
  if (![num_rows, columns].every((d) => Number.isSafeInteger(d) && d >= 0))
    return delegation(js(args), REASONS.unchecked);
  const n = Math.min(num_rows, columns);
  const result = (indices: Float64Array, values: Float32Array | Int32Array) => ({
    output: { kind: 'sparse', indices, values, shape: [num_rows, columns], dtype } satisfies SparseData,
  });
  if (n === 0) return result(new Float64Array(0), new Store(0));
  if (!ctx.fits(n * 16)) return delegation(js(args), REASONS.bindingLimit(ctx.maxBindingBytes));

  const owned: GPUBuffer[] = [];
  try {
    const p = ctx.upload(Uint32Array.of(n, ONE[dtype]));
    const idx = ctx.buffer(n * 16);
    const vals = ctx.buffer(n * 4);
    owned.push(p, idx, vals);
    ctx.dispatch({ code: EYE, buffers: [p, idx, vals], threads: n });
    const [ib, vb] = await ctx.read([idx, n * 16], [vals, n * 4]);
    return result(indicesOf(ib), new Store(vb));
  } finally {
    ctx.release(...owned);
  }
};
