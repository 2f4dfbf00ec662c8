/// <reference types="@webgpu/types" />
import { delegation, rowMajorStrides, sizeOf, type DenseData } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { INT32_MAX } from '../matmul/spmm.js';

/** Every element of the output the default's bits: p = [size, default]. */
const FILL = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  out[i] = p[1];
}
`;

/** Each entry's value to its offset (no two entries share one: the host keeps the last of a repeat). p = [count]. */
const SCATTER = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> off: array<u32>;
@group(0) @binding(2) var<storage, read> val: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  out[off[i]] = val[i];
}
`;

/**
 * sparse_tensor_to_dense (float32 and int32) on the GPU: one pass fills the output with the default (none where the
 * default's bits are zero: a new buffer is zeroed), a second writes each entry's value at its offset. Values move
 * as 32-bit words, never as floats, so every float32 (inf, nan, a subnormal) arrives bit for bit, and no input or
 * result needs screening. The host computes each entry's linear offset (O(nnz · rank)); where the offsets do not
 * strictly increase (an unordered or repeated index, possible with validate_indices false, or a kernel called
 * without the runtime's checks), it keeps only the last entry of each offset, as the JS kernel's in-order writes do,
 * so no two invocations write one element. One submission, one read.
 */
export const sparseTensorToDense: KernelFactory<'sparse_tensor_to_dense'> = (ctx, js) => async (args) => {
  const sp = args.sp_input;
  const dtype = sp.dtype;
  if (dtype !== 'float32' && dtype !== 'int32') return delegation(js(args), REASONS.notComputed(dtype));
  const shape = [...sp.shape];
  const size = sizeOf(shape);
  const nnz = sp.values.length;
  const Store = dtype === 'float32' ? Float32Array : Int32Array;
  if (size === 0) return { output: { kind: 'dense', data: new Store(0), shape, dtype } satisfies DenseData };
  if (shape.some((d) => d > INT32_MAX) || !ctx.fits(size * 4) || !ctx.fits(nnz * 4))
    return delegation(js(args), REASONS.bindingLimit(ctx.maxBindingBytes));

  // The default as the output's store holds it (the same conversion as the JS kernel's fill), then as bits.
  const dflt = new Store(1);
  dflt[0] = args.default_value as number;
  const dfltBits = new Uint32Array(dflt.buffer)[0];

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
  const values = sp.values as Float32Array | Int32Array;
  let val: Uint32Array = new Uint32Array(values.buffer, values.byteOffset, nnz);
  if (!increasing) [off, val] = lastOfEach(off, val);

  const out = ctx.buffer(size * 4);
  const uploaded: GPUBuffer[] = [];
  if (dfltBits !== 0) {
    const fill = [ctx.upload(Uint32Array.of(size, dfltBits))];
    uploaded.push(...fill);
    ctx.dispatch({ code: FILL, buffers: [...fill, out], threads: size });
  }
  if (off.length) {
    const scatter = [ctx.upload(Uint32Array.of(off.length)), ctx.upload(off), ctx.upload(val)];
    uploaded.push(...scatter);
    ctx.dispatch({ code: SCATTER, buffers: [...scatter, out], threads: off.length });
  }
  let data: Float32Array | Int32Array;
  try {
    const [bytes] = await ctx.read([out, size * 4]);
    data = new Store(bytes);
  } finally {
    ctx.release(out, ...uploaded);
  }
  return { output: { kind: 'dense', data, shape, dtype } satisfies DenseData };
};

/** The entries that a write in order leaves standing: for each offset its last entry (linear, a Map of offsets). */
function lastOfEach(off: Uint32Array, val: Uint32Array): [Uint32Array, Uint32Array] {
  const last = new Map<number, number>();
  for (let e = 0; e < off.length; e++) last.set(off[e], e);
  const keptOff = new Uint32Array(last.size);
  const keptVal = new Uint32Array(last.size);
  let k = 0;
  for (const [o, e] of last) {
    keptOff[k] = o;
    keptVal[k++] = val[e];
  }
  return [keptOff, keptVal];
}
