/// <reference types="@webgpu/types" />
import { delegation } from '@sparse/kernel-abi';
import { ENTRY } from '../context.js';
import type { KernelFactory } from '../kernel.js';
import { REASONS } from '../delegation.js';
import { recordCompaction } from '../structural/compact.js';
import { valuesOf, valueWidth, valueWords, type MovedDType } from '../structural/value-words.js';
import { BindingLimitError } from '../tiling/binding-limit.js';

/** flags[i] = 1 where byte i of the mask (packed four a word, little-endian) is not 0. p = [n]. */
const FLAG = `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> mask: array<u32>;
@group(0) @binding(2) var<storage, read_write> flags: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  flags[i] = select(0u, 1u, ((mask[i / 4u] >> ((i % 4u) * 8u)) & 0xffu) != 0u);
}
`;

/**
 * sparse_retain (every dtype but string) on the GPU, as a stream compaction: a flag per entry from its byte of
 * `to_retain`, the flags' scan, then each kept entry moves its index row and its value to its place, in input order
 * (structural/compact.ts). Index rows move as the float64 words they are, so any index moves bit for bit (past 2^32,
 * -0); values as their words (two a float64 or int64: value-words.ts). The host counts the kept flags to size the
 * outputs; nothing kept needs no GPU. A mask that is not one bool a value (the runtime refuses it) runs on the JS
 * kernels. One submission, one read.
 */
export const sparseRetain: KernelFactory<'sparse_retain'> = (ctx, js) => async (args) => {
  const { sp_input: sp, to_retain } = args;
  const { dtype, shape } = sp;
  const vw = valueWidth(dtype);
  if (!vw) return delegation(js(args), REASONS.notComputed(dtype));
  const rank = shape.length;
  const n = sp.values.length;
  const keep = to_retain.data;
  if (
    to_retain.dtype !== 'bool' ||
    !(keep instanceof Uint8Array) ||
    keep.length !== n ||
    sp.indices.length !== n * rank
  )
    return delegation(js(args), REASONS.unchecked);
  let m = 0;
  for (let i = 0; i < n; i++) if (keep[i]) m++;
  if (m === 0)
    return {
      output: { kind: 'sparse', indices: new Float64Array(0), values: sp.values.slice(0, 0), shape: [...shape], dtype },
    };
  if (!ctx.fits(n * Math.max(rank * 2, vw) * 4)) throw new BindingLimitError(ctx.maxBindingBytes);

  const packed = new Uint8Array(Math.ceil(n / 4) * 4);
  packed.set(keep);
  const indexWords = new Uint32Array(sp.indices.buffer, sp.indices.byteOffset, n * rank * 2);
  const owned: GPUBuffer[] = [];
  try {
    const p = ctx.upload(Uint32Array.of(n));
    const mask = ctx.upload(new Uint32Array(packed.buffer));
    const rows = ctx.upload(indexWords);
    const values = ctx.upload(valueWords(sp.values));
    const flags = ctx.buffer(n * 4);
    owned.push(p, mask, rows, values, flags);
    ctx.dispatch({ code: FLAG, buffers: [p, mask, flags], threads: n });
    const width = rank * 2;
    const shift = new Array<number>(width).fill(0);
    const out = recordCompaction(ctx, { flags, n, m, rows, width, shift, values, valueWidth: vw }, owned);
    const [ib, vb] = await ctx.read([out.rows, m * width * 4], [out.values, m * vw * 4]);
    return {
      output: {
        kind: 'sparse',
        indices: new Float64Array(ib),
        values: valuesOf(vb, dtype as MovedDType),
        shape: [...shape],
        dtype,
      },
    };
  } finally {
    ctx.release(...owned);
  }
};
