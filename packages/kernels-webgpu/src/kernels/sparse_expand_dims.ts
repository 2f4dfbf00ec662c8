/// <reference types="@webgpu/types" />
import { delegation, type SparseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import { REASONS } from '../delegation.js';
import type { KernelFactory } from '../kernel.js';
import { indexWords, indicesOf } from '../structural/float64-index.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * Each entry's index, dim d to dim d (before the new one) or d + 1 (after it), as its two float64 words; the new
 * dim's words stay 0 (+0, the cleared buffer). p = [n, rank, at].
 */
const EXPAND = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let rank = p[1];
  for (var d = 0u; d < rank; d++) {
    let src = 2u * (i * rank + d);
    let dst = 2u * (i * (rank + 1u) + select(d + 1u, d, d < p[2]));
    out[dst] = idx[src];
    out[dst + 1u] = idx[src + 1u];
  }
}
`;

/**
 * sparse_expand_dims (values of any dtype) on the GPU: each index moves as its float64 bits, a 0 inserted at
 * the new dim, so the output's indices are the JS kernel's bit for bit whatever they hold (and no dim limits
 * them). The values are copied on the host, unchanged, as js. An axis outside [-rank-1, rank] (the runtime refuses
 * one) runs on the JS kernels. One submission, one read; none without entries.
 */
export const sparseExpandDims: KernelFactory<'sparse_expand_dims'> = (ctx, js) => async (args) => {
  const { sp_input, axis } = args;
  const { indices, values, shape, dtype } = sp_input;
  const rank = shape.length;
  const n = values.length;
  const at = axis < 0 ? axis + rank + 1 : axis;
  if (!Number.isInteger(at) || at < 0 || at > rank || indices.length !== n * rank)
    return delegation(js(args), REASONS.unchecked);
  const outShape = [...shape.slice(0, at), 1, ...shape.slice(at)];
  const result = (out: Float64Array) => ({
    output: { kind: 'sparse', indices: out, values: values.slice(), shape: outShape, dtype } satisfies SparseData,
  });
  if (n === 0) return result(new Float64Array(0));
  const bytes = n * (rank + 1) * 8;
  if (!ctx.fits(bytes)) throw new BindingLimitError(ctx.maxBindingBytes);

  const owned: GPUBuffer[] = [];
  try {
    const p = ctx.upload(Uint32Array.of(n, rank, at));
    const idx = ctx.upload(indexWords(indices));
    const out = ctx.buffer(bytes);
    owned.push(p, idx, out);
    ctx.dispatch({ code: EXPAND, buffers: [p, idx, out], threads: n });
    const [ob] = await ctx.read([out, bytes]);
    return result(indicesOf(ob));
  } finally {
    ctx.release(...owned);
  }
};
