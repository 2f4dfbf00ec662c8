/// <reference types="@webgpu/types" />
import { delegation, type SparseData, type Values } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { recordCompaction } from '../structural/compact.js';
import { valuesOf, valueWidth, valueWords, type MovedDType } from '../structural/value-words.js';
import { u32Indices } from '../structural/u32-indices.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/** flags[i] = 1 where entry i lies in the box: lo[d] <= index <= hi[d] in every dim d. p = [n, rank, lo…, hi…]. */
const INSIDE = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read_write> flags: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  let rank = p[1];
  var inside = 1u;
  for (var d = 0u; d < rank; d++) {
    let x = idx[i * rank + d];
    if (x < p[2u + d] || x > p[2u + rank + d]) { inside = 0u; }
  }
  flags[i] = inside;
}
`;

/**
 * sparse_slice (every dtype but string) on the GPU, as a stream compaction: a flag per entry (inside the box), the
 * flags' scan, then each kept entry moves its index less `start` and its value's words (bit for bit, two a float64 or
 * int64: value-words.ts) to its place, in input order (structural/compact.ts). The host converts the indices to u32
 * (one past 2^32 - 1 runs on the JS kernels) and counts the kept entries as the JS kernel tests them, to size the
 * outputs; the box's end, which may pass 2^32, becomes an inclusive u32 bound, exact since every index is below 2^32.
 * Nothing kept needs no GPU. One submission, one read.
 */
export const sparseSlice: KernelFactory<'sparse_slice'> = (ctx, js) => async (args) => {
  const { sp_input: sp, start, size } = args;
  const { dtype, shape } = sp;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  const rank = shape.length;
  const whole = (x: number) => Number.isInteger(x) && x >= 0;
  if (start.length !== rank || size.length !== rank || !start.every(whole) || !size.every(whole))
    return delegation(js(args), REASONS.unchecked);
  const n = sp.values.length;
  const idx = u32Indices(sp.indices, n, rank);
  if (typeof idx === 'string') return delegation(js(args), idx);

  const end = start.map((s, d) => s + size[d]);
  let m = 0;
  for (let i = 0; i < n; i++) {
    let inside = true;
    for (let d = 0, q = i * rank; d < rank && inside; d++, q++) inside = idx[q] >= start[d] && idx[q] < end[d];
    if (inside) m++;
  }
  const outShape = shape.map((dim, d) => Math.max(Math.min(end[d], dim) - start[d], 0));
  const result = (indices: Float64Array, values: Values) => ({
    output: { kind: 'sparse', indices, values, shape: outShape, dtype } satisfies SparseData,
  });
  if (m === 0) return result(new Float64Array(0), sp.values.slice(0, 0));
  if (!ctx.fits(n * Math.max(rank, width) * 4)) throw new BindingLimitError(ctx.maxBindingBytes);

  // An entry is kept, so every start is at most an index (below 2^32) and every end at least 1.
  const hi = end.map((e) => Math.min(e, 2 ** 32) - 1);
  const owned: GPUBuffer[] = [];
  try {
    const p = ctx.upload(Uint32Array.of(n, rank, ...start, ...hi));
    const rows = ctx.upload(idx);
    const values = ctx.upload(valueWords(sp.values));
    const flags = ctx.buffer(n * 4);
    owned.push(p, rows, values, flags);
    ctx.dispatch({ code: INSIDE, buffers: [p, rows, flags], threads: n });
    const out = recordCompaction(
      ctx,
      { flags, n, m, rows, width: rank, shift: start, values, valueWidth: width },
      owned,
    );
    const [ib, vb] = await ctx.read([out.rows, m * rank * 4], [out.values, m * width * 4]);
    return result(Float64Array.from(new Uint32Array(ib)), valuesOf(vb, dtype as MovedDType));
  } finally {
    ctx.release(...owned);
  }
};
