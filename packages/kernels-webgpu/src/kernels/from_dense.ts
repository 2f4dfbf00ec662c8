/// <reference types="@webgpu/types" />
import { delegation, isZeroAt, type SparseData, type Values } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { recordScan } from '../structural/scan.js';
import { moveValue, valuesOf, valueWidth, valueWords, type MovedDType } from '../structural/value-words.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/**
 * Whether element i (its `width` words, the high one last) is not the dtype's zero: a float (p[1] = 1) drops 0 and
 * -0 (all bits but the sign clear) and keeps nan; an integer or bool any set bit.
 */
const nonzero = (width: number) => `fn nonzero(i: u32) -> bool {
  let hi = data[i * ${width}u + ${width - 1}u];
  let top = select(hi, hi & 0x7fffffffu, p[1] == 1u);
  return ${width === 1 ? 'top' : '(top | data[i * 2u])'} != 0u;
}`;

/** flags[i] = 1 where element i is kept. p = [size, float]. */
const flag = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> data: array<u32>;
@group(0) @binding(2) var<storage, read_write> flags: array<u32>;
${nonzero(width)}
${ENTRY}
  if (i >= p[0]) { return; }
  flags[i] = select(0u, 1u, nonzero(i));
}
`;

/**
 * Each kept element to its place k (the flags' exclusive scan): its words to value k, its dense index (flat position
 * i in the row-major shape, last dim first) to idx[k · rank …]. p = [size, float, rank, dim 0, …].
 */
const compact = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> data: array<u32>;
@group(0) @binding(2) var<storage, read> pos: array<u32>;
@group(0) @binding(3) var<storage, read_write> idx: array<u32>;
@group(0) @binding(4) var<storage, read_write> vals: array<u32>;
${nonzero(width)}
${ENTRY}
  if (i >= p[0]) { return; }
  if (!nonzero(i)) { return; }
  let k = pos[i];
  ${moveValue(width, 'vals', 'k', 'data', 'i')}
  let rank = p[2];
  var rem = i;
  for (var d = rank; d > 0u; d--) {
    let dim = p[2u + d];
    idx[k * rank + d - 1u] = rem % dim;
    rem = rem / dim;
  }
}
`;

/**
 * from_dense (every dtype but string) on the GPU, as a stream compaction: a flag per element (not the dtype's zero: a
 * float by its bits, so -0 is dropped and nan kept, as the JS kernel's isZeroAt), the flags' exclusive scan
 * (structural/scan.ts), then each kept element writes its value and its index at its place. Values move as their words
 * (two a float64 or int64, value-words.ts), bit for bit. The host counts the kept elements the same way (O(size)) to
 * size the outputs; nothing kept, or a scalar, needs no GPU. One submission, one read.
 */
export const fromDense: KernelFactory<'from_dense'> = (ctx, js) => async (args) => {
  const { data, shape, dtype } = args.tensor;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  const rank = shape.length;
  const size = data.length;
  let nnz = 0;
  for (let f = 0; f < size; f++) if (!isZeroAt(data, f)) nnz++;
  const result = (indices: Float64Array, values: Values) => ({
    output: { kind: 'sparse', indices, values, shape: [...shape], dtype } satisfies SparseData,
  });
  if (nnz === 0) return result(new Float64Array(0), data.slice(0, 0));
  if (rank === 0) return result(new Float64Array(0), data.slice());
  if (!ctx.fits(size * width * 4) || !ctx.fits(nnz * rank * 4)) throw new BindingLimitError(ctx.maxBindingBytes);

  const owned: GPUBuffer[] = [];
  try {
    const float = dtype === 'float32' || dtype === 'float64';
    const p = ctx.upload(Uint32Array.of(size, float ? 1 : 0, rank, ...shape));
    const src = ctx.upload(valueWords(data));
    const pos = ctx.buffer(size * 4);
    const idx = ctx.buffer(nnz * rank * 4);
    const vals = ctx.buffer(nnz * width * 4);
    owned.push(p, src, pos, idx, vals);
    ctx.dispatch({ code: flag(width), buffers: [p, src, pos], threads: size });
    recordScan(ctx, pos, size, owned);
    ctx.dispatch({ code: compact(width), buffers: [p, src, pos, idx, vals], threads: size });
    const [ib, vb] = await ctx.read([idx, nnz * rank * 4], [vals, nnz * width * 4]);
    return result(Float64Array.from(new Uint32Array(ib)), valuesOf(vb, dtype as MovedDType));
  } finally {
    ctx.release(...owned);
  }
};
