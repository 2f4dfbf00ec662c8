/// <reference types="@webgpu/types" />
import { delegation, type SparseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import { REASONS } from '../delegation.js';
import type { KernelFactory } from '../kernel.js';
import { indexWords } from '../structural/float64-index.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * The per-dim maximum of the indices' float64 bits, high words first: max[2d + 1] = the largest high word of dim d.
 * Non-negative doubles order as their bits do; an index with its sign bit set or a nan sets bad[0] (js's maximum
 * of index + 1 over 0 would differ). p = [n, rank].
 */
const MAX_HIGH = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read_write> mx: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> bad: array<atomic<u32>>;
${ENTRY}
  let rank = p[1];
  if (i >= p[0] * rank) { return; }
  let hi = idx[2u * i + 1u];
  if (hi >= 0x80000000u || (hi > 0x7ff00000u || (hi == 0x7ff00000u && idx[2u * i] != 0u))) {
    atomicOr(&bad[0], 1u);
  }
  atomicMax(&mx[2u * (i % rank) + 1u], hi);
}
`;

/** Then the largest low word among the indices of dim d whose high word is the maximum. p as MAX_HIGH's. */
const MAX_LOW = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read_write> mx: array<atomic<u32>>;
${ENTRY}
  let rank = p[1];
  if (i >= p[0] * rank) { return; }
  let d = i % rank;
  if (idx[2u * i + 1u] == atomicLoad(&mx[2u * d + 1u])) { atomicMax(&mx[2u * d], idx[2u * i]); }
}
`;

/**
 * sparse_reset_shape (values of any dtype) on the GPU: with `new_shape` null, the tight bounding box (each
 * dim's largest index plus one) is a maximum over the indices' float64 bits (two atomic passes: high words, then
 * low words under the highest), one thread an index; an index js's maximum would treat differently (negative, -0,
 * nan) runs on the JS kernels. A given `new_shape` needs nothing computed: indices and values are copied as js
 * copies them. One submission for a bounding box, none otherwise.
 */
export const sparseResetShape: KernelFactory<'sparse_reset_shape'> = (ctx, js) => async (args) => {
  const { sp_input, new_shape } = args;
  const { indices, values, shape, dtype } = sp_input;
  const rank = shape.length;
  const n = values.length;
  if (indices.length !== n * rank) return delegation(js(args), REASONS.unchecked);
  const result = (outShape: number[]) => ({
    output: {
      kind: 'sparse',
      indices: indices.slice(),
      values: values.slice(),
      shape: outShape,
      dtype,
    } satisfies SparseData,
  });
  if (new_shape !== null) return result([...new_shape]);
  if (n === 0 || rank === 0) return result(new Array<number>(rank).fill(0));
  if (!ctx.fits(n * rank * 8)) throw new BindingLimitError(ctx.maxBindingBytes);

  const owned: GPUBuffer[] = [];
  try {
    const p = ctx.upload(Uint32Array.of(n, rank));
    const idx = ctx.upload(indexWords(indices));
    const mx = ctx.buffer(rank * 8);
    const bad = ctx.buffer(4);
    owned.push(p, idx, mx, bad);
    ctx.dispatch({ code: MAX_HIGH, buffers: [p, idx, mx, bad], threads: n * rank });
    ctx.dispatch({ code: MAX_LOW, buffers: [p, idx, mx], threads: n * rank });
    const [mb, bb] = await ctx.read([mx, rank * 8], [bad, 4]);
    if (new Uint32Array(bb)[0] !== 0) return delegation(js(args), REASONS.unchecked);
    return result(Array.from(new Float64Array(mb), (x) => x + 1));
  } finally {
    ctx.release(...owned);
  }
};
