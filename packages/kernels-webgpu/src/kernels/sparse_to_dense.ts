/// <reference types="@webgpu/types" />
import { delegation, rowMajorStrides, sizeOf, type DenseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { INT32_MAX } from '../matmul/spmm.js';
import {
  moveValue,
  scalarWords,
  valuesOf,
  valueWidth,
  valueWords,
  type MovedDType,
} from '../structural/value-words.js';

/** Every element of the output the default's `width` words. p = [size, count, broadcast, default's words…]. */
const fill = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  for (var w = 0u; w < ${width}u; w++) { out[i * ${width}u + w] = p[3u + w]; }
}
`;

/** Each index's value (the one value, broadcast: p[2] = 1) to its offset; no two share one. p as fill's. */
const scatter = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> off: array<u32>;
@group(0) @binding(2) var<storage, read> val: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[1]) { return; }
  ${moveValue(width, 'out', 'off[i]', 'val', 'select(i, 0u, p[2] == 1u)')}
}
`;

/**
 * sparse_to_dense (values of every dtype but string; int32 or int64 indices) on the GPU: one pass fills the output with
 * the default (none where its bits are zero), a second writes each value at its index's offset, as its words (bit for
 * bit, two a float64 or int64: value-words.ts; no screening). The host reads the indices (a scalar, a vector or an [N ×
 * rank] matrix, as the JS kernel) into offsets, O(N · rank); where they do not strictly increase (validate_indices
 * false) it keeps the last entry of each offset, as the JS kernel's writes in order do. An index outside output_shape,
 * or a values count that is neither N nor a scalar (both refused by the runtime), runs on the JS kernels. One
 * submission, one read.
 */
export const sparseToDense: KernelFactory<'sparse_to_dense'> = (ctx, js) => async (args) => {
  const { sparse_indices, output_shape, sparse_values } = args;
  const dtype = sparse_values.dtype;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  const shape = [...output_shape];
  const size = sizeOf(shape);
  const rank = shape.length;
  const n = sparse_indices.shape.length === 0 ? 1 : sparse_indices.shape[0];
  const broadcast = sparse_values.shape.length === 0;
  const result = (data: DenseData['data']) => ({
    output: { kind: 'dense', data, shape, dtype } satisfies DenseData,
  });
  if (size === 0) return result(sparse_values.data.slice(0, 0));
  if ((!broadcast && sparse_values.data.length !== n) || sparse_indices.data.length !== n * rank)
    return delegation(js(args), REASONS.unchecked);
  if (shape.some((d) => d > INT32_MAX) || !ctx.fits(size * width * 4) || !ctx.fits(n * width * 4))
    return delegation(js(args), REASONS.bindingLimit(ctx.maxBindingBytes));

  const dflt = scalarWords(dtype as MovedDType, args.default_value);
  const strides = rowMajorStrides(shape);
  const raw = sparse_indices.data as ArrayLike<number | bigint>;
  let off: Uint32Array = new Uint32Array(n);
  let increasing = true;
  for (let e = 0, prev = -1; e < n; e++) {
    let o = 0;
    for (let d = 0; d < rank; d++) {
      const x = Number(raw[e * rank + d]);
      if (!(x >= 0 && x < shape[d]) || x !== Math.floor(x)) return delegation(js(args), REASONS.unchecked);
      o += x * strides[d];
    }
    off[e] = o;
    if (o <= prev) increasing = false;
    prev = o;
  }
  const values = valueWords(sparse_values.data);
  let val: Uint32Array = broadcast ? values.subarray(0, width) : values;
  if (!increasing) [off, val] = lastOfEach(off, val, broadcast, width);

  const owned: GPUBuffer[] = [];
  try {
    const p = ctx.upload(Uint32Array.of(size, off.length, broadcast ? 1 : 0, ...dflt));
    const out = ctx.buffer(size * width * 4);
    owned.push(p, out);
    if (dflt.some((w) => w !== 0)) ctx.dispatch({ code: fill(width), buffers: [p, out], threads: size });
    if (off.length) {
      const offBuf = ctx.upload(off);
      const valBuf = ctx.upload(val);
      owned.push(offBuf, valBuf);
      ctx.dispatch({ code: scatter(width), buffers: [p, offBuf, valBuf, out], threads: off.length });
    }
    const [bytes] = await ctx.read([out, size * width * 4]);
    return result(valuesOf(bytes, dtype as MovedDType));
  } finally {
    ctx.release(...owned);
  }
};

/** For each offset, its last entry (a write in order leaves it standing), its `width` value words with it: linear. */
function lastOfEach(off: Uint32Array, val: Uint32Array, broadcast: boolean, width: number): [Uint32Array, Uint32Array] {
  const last = new Map<number, number>();
  for (let e = 0; e < off.length; e++) last.set(off[e], e);
  const keptOff = new Uint32Array(last.size);
  const keptVal = broadcast ? val : new Uint32Array(last.size * width);
  let k = 0;
  for (const [o, e] of last) {
    keptOff[k] = o;
    if (!broadcast) keptVal.set(val.subarray(e * width, (e + 1) * width), k * width);
    k++;
  }
  return [keptOff, keptVal];
}
