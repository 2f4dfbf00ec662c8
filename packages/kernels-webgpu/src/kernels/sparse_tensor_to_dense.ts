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

/** Every element of the output the default's `width` words: p = [size, default's words…]. */
const fill = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  ${width === 1 ? 'out[i] = p[1];' : `for (var w = 0u; w < ${width}u; w++) { out[i * ${width}u + w] = p[1u + w]; }`}
}
`;

/** Each entry's value to its offset (no two entries share one: the host keeps the last of a repeat). p = [count]. */
const scatter = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> off: array<u32>;
@group(0) @binding(2) var<storage, read> val: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  ${moveValue(width, 'out', 'off[i]', 'val', 'i')}
}
`;

/**
 * sparse_tensor_to_dense (every dtype but string) on the GPU: one pass fills the output with the default (none where
 * the default's bits are zero: a new buffer is zeroed), a second writes each entry's value at its offset. Values move
 * as their words (two a float64 or int64: value-words.ts), never as numbers, so every value (inf, nan and its payload,
 * a subnormal, -0) arrives bit for bit, and no input or result needs screening. The host computes each entry's linear
 * offset (O(nnz · rank)); where the offsets do not strictly increase (an unordered or repeated index, possible with
 * validate_indices false, or a kernel called without the runtime's checks), it keeps only the last entry of each
 * offset, as the JS kernel's in-order writes do, so no two invocations write one element. One submission, one read.
 */
export const sparseTensorToDense: KernelFactory<'sparse_tensor_to_dense'> = (ctx, js) => async (args) => {
  const sp = args.sp_input;
  const dtype = sp.dtype;
  const width = valueWidth(dtype);
  if (!width) return delegation(js(args), REASONS.notComputed(dtype));
  const shape = [...sp.shape];
  const size = sizeOf(shape);
  const nnz = sp.values.length;
  if (size === 0) return { output: { kind: 'dense', data: sp.values.slice(0, 0), shape, dtype } satisfies DenseData };
  if (shape.some((d) => d > INT32_MAX) || !ctx.fits(size * width * 4) || !ctx.fits(nnz * width * 4))
    return delegation(js(args), REASONS.bindingLimit(ctx.maxBindingBytes));

  // The default as the output's store holds it (the same conversion as the JS kernel's fill), then as words.
  const dflt = scalarWords(dtype as MovedDType, args.default_value);

  const strides = rowMajorStrides(shape);
  const rank = shape.length;
  let off: Uint32Array = new Uint32Array(nnz);
  let increasing = true;
  for (let e = 0, prev = -1; e < nnz; e++) {
    let o = 0;
    for (let a = 0; a < rank; a++) o += sp.indices[e * rank + a] * strides[a];
    off[e] = o;
    if (o <= prev) increasing = false;
    prev = o;
  }
  let val = valueWords(sp.values);
  if (!increasing) [off, val] = lastOfEach(off, val, width);

  const out = ctx.buffer(size * width * 4);
  const uploaded: GPUBuffer[] = [];
  if (dflt.some((w) => w !== 0)) {
    const bound = [ctx.upload(Uint32Array.of(size, ...dflt))];
    uploaded.push(...bound);
    ctx.dispatch({ code: fill(width), buffers: [...bound, out], threads: size });
  }
  if (off.length) {
    const bound = [ctx.upload(Uint32Array.of(off.length)), ctx.upload(off), ctx.upload(val)];
    uploaded.push(...bound);
    ctx.dispatch({ code: scatter(width), buffers: [...bound, out], threads: off.length });
  }
  let data: DenseData['data'];
  try {
    const [bytes] = await ctx.read([out, size * width * 4]);
    data = valuesOf(bytes, dtype as MovedDType);
  } finally {
    ctx.release(out, ...uploaded);
  }
  return { output: { kind: 'dense', data, shape, dtype } satisfies DenseData };
};

/**
 * The entries that a write in order leaves standing: for each offset its last entry (linear, a Map of offsets),
 * its value's `width` words with it.
 */
function lastOfEach(off: Uint32Array, val: Uint32Array, width: number): [Uint32Array, Uint32Array] {
  const last = new Map<number, number>();
  for (let e = 0; e < off.length; e++) last.set(off[e], e);
  const keptOff = new Uint32Array(last.size);
  const keptVal = new Uint32Array(last.size * width);
  let k = 0;
  for (const [o, e] of last) {
    keptOff[k] = o;
    keptVal.set(val.subarray(e * width, (e + 1) * width), k * width);
    k++;
  }
  return [keptOff, keptVal];
}
