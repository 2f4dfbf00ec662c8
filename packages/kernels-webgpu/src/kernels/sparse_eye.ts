/// <reference types="@webgpu/types" />
import { allocValues, delegation, type SparseData, type Values } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import { REASONS } from '../delegation.js';
import type { KernelFactory } from '../kernel.js';
import { FLOAT64_INDEX, indicesOf } from '../structural/float64-index.js';
import { scalarWords, valuesOf, valueWidth, type MovedDType } from '../structural/value-words.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/** Entry i: index [i, i] as float64 words, value the one's `width` words. p = [n, one's words…]. */
const eye = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
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
  ${width === 1 ? 'vals[i] = p[1];' : `for (var w = 0u; w < ${width}u; w++) { vals[i * ${width}u + w] = p[1u + w]; }`}
}
`;

/**
 * sparse_eye (float32, int32, float64, int64 and bool) on the GPU: one thread an entry writes [i, i] and a one (its
 * words as the JS kernel's store holds it: value-words.ts), in canonical order as js. Dims that are not whole numbers
 * >= 0 (the runtime refuses them), run on the JS kernels. One submission, one read; none for no entries.
 */
export const sparseEye: KernelFactory<'sparse_eye'> = (ctx, js) => async (args) => {
  const { num_rows, num_columns, dtype } = args;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  const columns = num_columns ?? num_rows;
  if (![num_rows, columns].every((d) => Number.isSafeInteger(d) && d >= 0))
    return delegation(js(args), REASONS.unchecked);
  const n = Math.min(num_rows, columns);
  const result = (indices: Float64Array, values: Values) => ({
    output: { kind: 'sparse', indices, values, shape: [num_rows, columns], dtype } satisfies SparseData,
  });
  if (n === 0) return result(new Float64Array(0), allocValues(dtype, 0));
  if (!ctx.fits(n * 16)) throw new BindingLimitError(ctx.maxBindingBytes);

  const owned: GPUBuffer[] = [];
  try {
    const p = ctx.upload(Uint32Array.of(n, ...scalarWords(dtype as MovedDType, 1)));
    const idx = ctx.buffer(n * 16);
    const vals = ctx.buffer(n * width * 4);
    owned.push(p, idx, vals);
    ctx.dispatch({ code: eye(width), buffers: [p, idx, vals], threads: n });
    const [ib, vb] = await ctx.read([idx, n * 16], [vals, n * width * 4]);
    return result(indicesOf(ib), valuesOf(vb, dtype as MovedDType));
  } finally {
    ctx.release(...owned);
  }
};
