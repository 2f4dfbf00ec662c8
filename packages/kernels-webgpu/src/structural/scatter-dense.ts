/// <reference types="@webgpu/types" />
import type { Values } from '@sparse/kernel-abi';
import { ENTRY, type WebGpuContext } from '../context.js';
import { moveValue, valuesOf, type MovedDType } from './value-words.js';

/** Every element of the output the default's `width` words. p = [size, count, broadcast, default's words…]. */
const fill = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[0]) { return; }
  for (var w = 0u; w < ${width}u; w++) { out[i * ${width}u + w] = p[3u + w]; }
}
`;

/** Each offset's value (the one value, broadcast: p[2] = 1) to it; no two share one. p as fill's. */
const scatter = (width: number) => `@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read> off: array<u32>;
@group(0) @binding(2) var<storage, read> val: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
${ENTRY}
  if (i >= p[1]) { return; }
  ${moveValue(width, 'out', 'off[i]', 'val', 'select(i, 0u, p[2] == 1u)')}
}
`;

/** What scatterDense writes: a dense output of `size` elements, each of `width` words. */
export interface ScatterDense {
  size: number;
  width: number;
  dtype: MovedDType;
  /** The default's `width` words (value-words.ts scalarWords). */
  dflt: Uint32Array;
  /** Each entry's linear offset into the output, in entry order. */
  off: Uint32Array;
  /** Each entry's `width` value words, in entry order; the one value's when `broadcast`. */
  val: Uint32Array;
  broadcast: boolean;
}

/**
 * A dense output on the GPU from a default and entries at host-computed offsets (sparse_to_dense,
 * sparse_tensor_to_dense): one pass fills it with the default (none where the default's bits are zero: a new buffer
 * is zeroed), a second writes each entry's value words at its offset. Where the offsets do not strictly increase (an
 * unordered or repeated index), only the last entry of each offset is kept, as a JS kernel's writes in order leave
 * it, so no two invocations write one element. One submission, one read; the result as the dtype's store holds it.
 */
export async function scatterDense(ctx: WebGpuContext, s: ScatterDense): Promise<Values> {
  const { size, width, dflt, broadcast } = s;
  let { off, val } = s;
  let increasing = true;
  for (let e = 1; e < off.length && increasing; e++) if (off[e] <= off[e - 1]) increasing = false;
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
    return valuesOf(bytes, s.dtype);
  } finally {
    ctx.release(...owned);
  }
}

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
